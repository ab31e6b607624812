package e2bemu

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// sandboxEnvdVersion is the envd version sandboxes report: that of envd at the commit the emulator
// follows (packages/envd/pkg/version.go), which a template built today gets. The SDKs refuse one
// below 0.1.0, and below 0.4.0 send the user "user" with every command.
const sandboxEnvdVersion = "0.6.13"

// Sandbox lifetimes (handlers/timeout_helper.go validateAndParseTimeout): 15 s when the request
// sends none (sandboxtypes.SandboxTimeoutDefault), at most the team's max_length_hours, 1 for
// every tier since 20240219190940_add_max_length_hours.sql.
const (
	defaultSandboxTimeout = 15 * time.Second
	maxSandboxTimeout     = time.Hour
)

// sandbox is a running sandbox: nothing runs, but it remembers the build it started from, which is
// what a consumer of a template reference really gets, the filesystem that build left, and what
// envd runs its processes with (RunInSandbox).
type sandbox struct {
	id      string
	tmpl    *tmpl
	buildID string
	machine *sandboxos.Machine // the filesystem the build left (and what its start command started)
	// user and workdir are the template's: the last USER and WORKDIR of its steps
	// (phases/finalize/builder.go:155-181 gives them to envd as its defaults).
	user, workdir string
	// envVars are the create request's, all of the environment envd adds (handlers/sandbox_create.go:153,
	// envd/internal/api/init.go:268-271 ReplaceUserVars): a template's ENV steps are build-time only.
	envVars  map[string]string
	metadata map[string]string
	// endsAt is when the sandbox is killed unless someone kills it first (the create's timeout).
	endsAt time.Time
	// accessToken, when set (a secure sandbox), is the X-Access-Token envd requires.
	accessToken string
	// run serialises the commands envd runs in this sandbox's filesystem model; pids numbers them.
	run  sync.Mutex
	pids uint32
}

// SandboxInfo is what the emulator holds for a sandbox: the template and build it started from,
// its metadata and when its timeout ends it.
type SandboxInfo struct {
	SandboxID  string            `json:"sandbox_id"`
	TemplateID string            `json:"template_id"`
	BuildID    string            `json:"build_id"`
	Metadata   map[string]string `json:"metadata,omitempty"`
	EndsAt     time.Time         `json:"ends_at"`
}

func (sbx *sandbox) info() SandboxInfo {
	return SandboxInfo{SandboxID: sbx.id, TemplateID: sbx.tmpl.id, BuildID: sbx.buildID, Metadata: maps.Clone(sbx.metadata), EndsAt: sbx.endsAt}
}

// createSandbox is POST /sandboxes (handlers/sandbox_create.go), also served as POST /v2/sandboxes,
// which E2B's SDK (e2b 2.51) calls: id.ParseName reads "name[:tag]", then the template and build
// resolve as resolveBuild does (alias_cache.go Resolve, then cache/templates/cache.go Get over
// get_template_with_build_by_tag.sql). A reference that resolves to no ready build is a 404 in
// E2B's words. The sandbox runs what envd is asked to run (envd.go) until it is killed or its
// timeout ends it (expireSandboxes). Only a secure sandbox gets an envd access token (see secure).
func (s *Server) createSandbox(w http.ResponseWriter, r *http.Request) {
	var req newSandbox
	if !decode(w, r, &req) {
		return
	}
	identifier, tag, err := parseName(req.TemplateID)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid template reference: "+err.Error())
		return
	}
	timeout, problem := sandboxTimeout(req.Timeout)
	s.lock()
	defer s.mu.Unlock()
	t, b, refused := s.resolveBuild(identifier, tag)
	if refused != "" {
		writeError(w, http.StatusNotFound, refused)
		return
	}
	if problem != "" { // validateAndParseTimeout runs after the template resolves
		writeError(w, http.StatusBadRequest, problem)
		return
	}
	sbx := &sandbox{id: "i" + newID()[:19], tmpl: t, buildID: b.id, envVars: maps.Clone(req.EnvVars),
		metadata: maps.Clone(req.Metadata), endsAt: s.now().Add(timeout)}
	if m := b.plan.final.machine; m != nil {
		sbx.machine = m.Snapshot()
		sbx.user, sbx.workdir = b.plan.final.ctx.user, b.plan.final.ctx.workdir
	}
	var token *string
	if secure(r, req) {
		sbx.accessToken = newID()
		token = &sbx.accessToken
	}
	if s.sandboxes == nil {
		s.sandboxes = map[string]*sandbox{}
	}
	s.sandboxes[sbx.id] = sbx
	t.sandboxes++
	writeJSON(w, http.StatusCreated, createdSandbox{TemplateID: t.id, SandboxID: sbx.id, Alias: t.alias, ClientID: "6532622b",
		EnvdVersion: sandboxEnvdVersion, EnvdAccessToken: token})
}

// secure tells whether a create asks for a secure sandbox, whose envd wants the access token the
// answer carries: `secure` on POST /sandboxes (sandbox_create.go:188-199; the SDKs up to 2.45 send
// true unless told otherwise), and on POST /v2/sandboxes unless it says false: e2b 2.51 sends no
// `secure` there, its SDKs having made every sandbox secure by default.
func secure(r *http.Request, req newSandbox) bool {
	if req.Secure != nil {
		return *req.Secure
	}
	return r.URL.Path == "/v2/sandboxes"
}

// sandboxTimeout is validateAndParseTimeout: the request's seconds, or the default; a problem in
// E2B's words when they are out of range.
func sandboxTimeout(seconds *int32) (time.Duration, string) {
	switch {
	case seconds == nil:
		return defaultSandboxTimeout, ""
	case *seconds <= 0:
		return 0, "Timeout must be greater than 0"
	case time.Duration(*seconds)*time.Second > maxSandboxTimeout:
		return 0, fmt.Sprintf("Timeout cannot be greater than %d hours", int(maxSandboxTimeout.Hours()))
	}
	return time.Duration(*seconds) * time.Second, ""
}

// expireSandboxes kills the sandboxes whose timeout has passed by the clock, as E2B's orchestrator
// does when nobody kills them (autoPause is off unless asked for). Callers hold s.mu.
func (s *Server) expireSandboxes() {
	now := s.now()
	for id, sbx := range s.sandboxes {
		if !now.Before(sbx.endsAt) {
			s.removeSandbox(id)
		}
	}
}

// removeSandbox forgets a sandbox and frees its template. Callers hold s.mu.
func (s *Server) removeSandbox(id string) {
	sbx := s.sandboxes[id]
	delete(s.sandboxes, id)
	sbx.tmpl.sandboxes = max(0, sbx.tmpl.sandboxes-1) // SeedSandboxes may have set the count lower
}

// runningSandbox is the sandbox id names while it runs, nil when it was never started, was killed
// or timed out.
func (s *Server) runningSandbox(id string) *sandbox {
	s.lock()
	defer s.mu.Unlock()
	return s.sandboxes[id]
}

// killSandbox is DELETE /sandboxes/{sandboxID} (handlers/sandbox_kill.go).
func (s *Server) killSandbox(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("sandboxID")
	s.lock()
	defer s.mu.Unlock()
	if s.sandboxes[id] == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("Sandbox %q doesn't exist or you don't have access to it", id))
		return
	}
	s.removeSandbox(id)
	w.WriteHeader(http.StatusNoContent)
}

// SandboxMachine is a running sandbox's filesystem, for tests that look into it (nil for a
// sandbox of a seeded template).
func (s *Server) SandboxMachine(id string) *sandboxos.Machine {
	if sbx := s.runningSandbox(id); sbx != nil {
		return sbx.machine
	}
	return nil
}

// Sandbox reports a running sandbox: the template and the build it started from.
func (s *Server) Sandbox(id string) (SandboxInfo, bool) {
	sbx := s.runningSandbox(id)
	if sbx == nil {
		return SandboxInfo{}, false
	}
	return sbx.info(), true
}

// Sandboxes reports the running sandboxes, in no order.
func (s *Server) Sandboxes() []SandboxInfo {
	s.lock()
	defer s.mu.Unlock()
	infos := make([]SandboxInfo, 0, len(s.sandboxes))
	for _, sbx := range s.sandboxes {
		infos = append(infos, sbx.info())
	}
	return infos
}

// RunInSandbox runs command in a running sandbox as envd runs a process the SDK starts
// (commands.run): `/bin/bash -l -c` as the template's user, in its working directory, with the
// create request's envVars as the only environment added to the user's; false for a sandbox of a
// seeded template, which has no filesystem.
func (s *Server) RunInSandbox(id, command string) (sandboxos.Result, bool) {
	sbx := s.runningSandbox(id)
	if sbx == nil || sbx.machine == nil {
		return sandboxos.Result{}, false
	}
	sbx.run.Lock()
	defer sbx.run.Unlock()
	return sbx.machine.Exec(context.Background(), []string{"/bin/bash", "-l", "-c", command},
		sandboxos.Process{User: sbx.user, Dir: sbx.workdir, Env: sbx.envVars}), true
}
