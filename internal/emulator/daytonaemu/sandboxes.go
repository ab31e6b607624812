package daytonaemu

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Sandbox is one sandbox (sandbox/entities/sandbox.entity.ts), with the root filesystem its
// snapshot gave it and the commands run in it.
type Sandbox struct {
	ID         string
	Name       string
	Snapshot   string // the snapshot's name
	SnapshotID string
	User       string
	Env        map[string]string
	Labels     map[string]string
	Target     string
	State      string
	CPU, GPU   float64
	Mem, Disk  float64
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Commands   []Command

	machine *sandboxos.Machine
	config  runConfig
}

// Command is one toolbox process execute call and what it gave.
type Command struct {
	Command  string            `json:"command"`
	Cwd      string            `json:"cwd,omitempty"`
	Envs     map[string]string `json:"envs,omitempty"`
	ExitCode int               `json:"exitCode"`
	Result   string            `json:"result"`
}

// createSandboxRequest is the part of CreateSandboxDto (sandbox/dto/create-sandbox.dto.ts) a
// sandbox from a snapshot uses.
type createSandboxRequest struct {
	Name      string            `json:"name"`
	Snapshot  string            `json:"snapshot"`
	User      string            `json:"user"`
	Env       map[string]string `json:"env"`
	Labels    map[string]string `json:"labels"`
	Target    string            `json:"target"`
	CPU       float64           `json:"cpu"`
	GPU       float64           `json:"gpu"`
	Memory    float64           `json:"memory"`
	Disk      float64           `json:"disk"`
	GPUType   []string          `json:"gpuType"`
	BuildInfo json.RawMessage   `json:"buildInfo"`
}

// createSandbox is POST /sandbox from a snapshot (sandbox.controller.ts createSandbox, then
// sandbox.service.ts createFromSnapshot): the snapshot is found by name or id in the
// organization and must be active; the sandbox starts from its filesystem, as the user asked
// (default "daytona") with env, and the controller answers once it is started. A sandbox from
// buildInfo (a declarative build) is not emulated.
func (s *Server) createSandbox(w http.ResponseWriter, r *http.Request) error {
	var req createSandboxRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return badRequest("Unexpected token in JSON body: " + err.Error())
	}
	switch {
	case len(req.BuildInfo) > 0 && string(req.BuildInfo) != "null":
		return badRequest("Declarative builds are only supported for container-class sandboxes")
	case req.CPU != 0 || req.GPU != 0 || req.Memory != 0 || req.Disk != 0:
		return badRequest("Cannot specify Sandbox resources when using a snapshot")
	case len(req.GPUType) > 0:
		return badRequest("Cannot specify GPU type when creating sandbox from snapshot. GPU type is inherited from snapshot.")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	region, err := s.region(req.Target)
	if err != nil {
		return err
	}
	name := strings.TrimSpace(req.Snapshot)
	var sn *Snapshot
	for _, c := range s.snapshots {
		if !c.Removed && (c.Name == name || (isUUID(name) && c.ID == name)) && (sn == nil || c.State == StateActive) {
			sn = c
		}
	}
	switch {
	case sn == nil:
		return badRequest(fmt.Sprintf("Snapshot %s not found. Did you add it through the Daytona Dashboard?", name))
	case sn.RegionID != region:
		return badRequest(fmt.Sprintf("Snapshot %s is not available in region %s", name, region))
	case sn.State != StateActive:
		return badRequest(fmt.Sprintf("Snapshot %s is %s", name, sn.State))
	}
	for _, other := range s.sandboxes {
		if req.Name != "" && other.Name == req.Name && other.State != "destroyed" {
			return conflict(fmt.Sprintf("Sandbox with name %s already exists", req.Name))
		}
	}
	now := s.now()
	sb := &Sandbox{ID: newUUID(), Name: req.Name, Snapshot: sn.Name, SnapshotID: sn.ID, User: req.User, Env: req.Env,
		Labels: req.Labels, Target: region, State: "started", CPU: sn.CPU, GPU: sn.GPU, Mem: sn.Mem, Disk: sn.Disk,
		CreatedAt: now, UpdatedAt: now, machine: sn.machine.Clone(), config: sn.config}
	if sb.Name == "" {
		sb.Name = sb.ID
	}
	if sb.User == "" {
		sb.User = "daytona" // sandbox.service.ts: "TODO: default user should be configurable"
	}
	sn.LastUsedAt = &now // snapshot.service.ts handleSandboxCreatedEvent
	s.sandboxes = append(s.sandboxes, sb)
	writeJSON(w, http.StatusOK, sb.dto(r))
	return nil
}

// dto is the SandboxDto the API answers, with the toolbox proxy address.
func (sb *Sandbox) dto(r *http.Request) map[string]any {
	return map[string]any{
		"id": sb.ID, "organizationId": defaultOrganizationID, "name": sb.Name, "snapshot": sb.Snapshot, "user": sb.User,
		"env": orEmpty(sb.Env), "labels": orEmpty(sb.Labels), "public": false, "networkBlockAll": false,
		"target": sb.Target, "cpu": sb.CPU, "gpu": sb.GPU, "memory": sb.Mem, "disk": sb.Disk, "state": sb.State,
		"desiredState": strings.Replace(sb.State, "destroying", "destroyed", 1), "errorReason": nil,
		"createdAt": sb.CreatedAt, "updatedAt": sb.UpdatedAt, "autoStopInterval": 15, "autoArchiveInterval": 10080,
		"autoDeleteInterval": -1, "volumes": []any{}, "sandboxClass": "container",
		"toolboxProxyUrl": baseURL(r) + toolboxPath,
	}
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// listSandboxes is GET /sandbox (ListSandboxesResponse of the spec): the sandboxes not destroyed,
// filtered by ?labels= (JSON, every pair must match), ?name= and ?snapshots=, up to ?limit= (100),
// newest first, in one page (nextCursor null).
func (s *Server) listSandboxes(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, problems := queryInt(q.Get("limit"), "limit", 100, 1, 200)
	var labels map[string]string
	if raw := q.Get("labels"); raw != "" && json.Unmarshal([]byte(raw), &labels) != nil {
		problems = append(problems, "Invalid labels JSON format") // sandbox.service.ts
	}
	if len(problems) > 0 {
		return badRequest(strings.Join(problems, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []map[string]any{}
	for i := len(s.sandboxes) - 1; i >= 0 && len(items) < limit; i-- {
		sb := s.sandboxes[i]
		if sb.State == "destroyed" || (q.Get("name") != "" && !strings.Contains(sb.Name, q.Get("name"))) ||
			(len(q["snapshots"]) > 0 && !slices.Contains(q["snapshots"], sb.Snapshot)) {
			continue
		}
		matches := true
		for k, v := range labels {
			matches = matches && sb.Labels[k] == v
		}
		if matches {
			items = append(items, sb.dto(r))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "nextCursor": nil})
	return nil
}

// sandbox finds a sandbox by id or name. Callers hold mu.
func (s *Server) sandbox(idOrName string) (*Sandbox, error) {
	for _, sb := range s.sandboxes {
		if sb.ID == idOrName || sb.Name == idOrName {
			return sb, nil
		}
	}
	return nil, notFound(fmt.Sprintf("Sandbox with ID or name %s not found", idOrName))
}

func (s *Server) getSandbox(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb, err := s.sandbox(r.PathValue("id"))
	if err != nil {
		return err
	}
	if sb.State == "destroying" { // the runner has destroyed it since
		sb.State, sb.UpdatedAt = "destroyed", s.now()
	}
	writeJSON(w, http.StatusOK, sb.dto(r))
	return nil
}

// deleteSandbox is DELETE /sandbox/{id}: it answers the sandbox destroying; it is destroyed by
// the next read.
func (s *Server) deleteSandbox(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb, err := s.sandbox(r.PathValue("id"))
	if err != nil {
		return err
	}
	if sb.State != "destroyed" {
		sb.State, sb.UpdatedAt = "destroying", s.now()
	}
	writeJSON(w, http.StatusOK, sb.dto(r))
	return nil
}

// toolboxProxyURL is GET /sandbox/{id}/toolbox-proxy-url (ToolboxProxyUrl).
func (s *Server) toolboxProxyURL(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.sandbox(r.PathValue("id")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": baseURL(r) + toolboxPath})
	return nil
}

// executeRequest is the daemon's ExecuteRequest (toolbox process/execute.go).
type executeRequest struct {
	Command *string           `json:"command"`
	Cwd     *string           `json:"cwd"`
	Envs    map[string]string `json:"envs"`
	Timeout *int              `json:"timeout"`
}

// executeCommand is the toolbox's POST /process/execute (daemon pkg/toolbox/process/execute.go):
// the command runs in the sandbox's shell (bash where the image has it, else sh: common
// GetShell), as the daemon's user (the image's USER: the runner sets none), in cwd (the image's
// WORKDIR when none, else that user's home), with the container's environment and envs; stdout
// and stderr come back combined as result, with the exit code.
func (s *Server) executeCommand(w http.ResponseWriter, r *http.Request) error {
	var req executeRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Command == nil {
		return badRequest("invalid request body: Key: 'ExecuteRequest.Command' Error:Field validation for 'Command' failed on the 'required' tag")
	}
	if strings.TrimSpace(*req.Command) == "" {
		return badRequest("command cannot be empty or whitespace-only")
	}
	s.mu.Lock()
	sb, err := s.sandbox(r.PathValue("sandboxId"))
	if err == nil && sb.State != "started" {
		err = &httpError{http.StatusBadGateway, "sandbox is not running"}
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	env := maps.Clone(sb.config.env)
	if env == nil {
		env = map[string]string{}
	}
	// the container's environment (runner pkg/docker container_configs.go): the image's ENV, the
	// sandbox's identity, then the sandbox's env; the request's envs on top (ApplyEnvs)
	env["DAYTONA_SANDBOX_ID"], env["DAYTONA_SANDBOX_SNAPSHOT"], env["DAYTONA_SANDBOX_USER"] = sb.ID, sb.Snapshot, sb.User
	maps.Copy(env, sb.Env)
	maps.Copy(env, req.Envs)
	dir := sb.config.workdir
	if dir == "" { // no WORKDIR: DAYTONA_USER_HOME_AS_WORKDIR, the daemon works in its user's home
		dir = "/"
		if u, ok := sb.machine.LookupUser(cmp.Or(sb.config.user, "root")); ok {
			dir = u.Home
		}
	}
	if req.Cwd != nil {
		dir = *req.Cwd
	}
	shell := "sh"
	if sb.machine.FS().Exists("/bin/bash") {
		shell = "/bin/bash"
	}
	res := sb.machine.Exec(r.Context(), []string{shell, "-c", *req.Command}, sandboxos.Process{User: sb.config.user, Dir: dir, Env: env})
	out := Command{Command: *req.Command, Cwd: dir, Envs: req.Envs, ExitCode: res.ExitCode, Result: res.Stdout + res.Stderr}
	s.mu.Lock()
	sb.Commands = append(sb.Commands, out)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"exitCode": out.ExitCode, "result": out.Result})
	return nil
}
