package e2bemu

import (
	"context"
	"fmt"
	"maps"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// sandboxEnvdVersion is the envd version sandboxes report; the SDKs refuse one below 0.1.0.
const sandboxEnvdVersion = "0.2.0"

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
	envVars map[string]string
}

// SandboxInfo is what the emulator holds for a sandbox: the template and build it started from.
type SandboxInfo struct {
	SandboxID  string `json:"sandbox_id"`
	TemplateID string `json:"template_id"`
	BuildID    string `json:"build_id"`
}

// createSandbox is POST /sandboxes (handlers/sandbox_create.go), also served as POST /v2/sandboxes,
// which E2B's SDK (e2b 2.51) calls: id.ParseName reads "name[:tag]", then the template and build
// resolve as resolveBuild does (alias_cache.go Resolve, then cache/templates/cache.go Get over
// get_template_with_build_by_tag.sql). A reference that resolves to no ready build is a 404 in
// E2B's words. Nothing is started: the sandbox only records its build.
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
	s.lock()
	defer s.mu.Unlock()
	t, b, refused := s.resolveBuild(identifier, tag)
	if refused != "" {
		writeError(w, http.StatusNotFound, refused)
		return
	}
	sbx := &sandbox{id: "i" + newID()[:19], tmpl: t, buildID: b.id, envVars: maps.Clone(req.EnvVars)}
	if m := b.plan.final.machine; m != nil {
		sbx.machine = m.Snapshot()
		sbx.user, sbx.workdir = b.plan.final.ctx.user, b.plan.final.ctx.workdir
	}
	if s.sandboxes == nil {
		s.sandboxes = map[string]*sandbox{}
	}
	s.sandboxes[sbx.id] = sbx
	t.sandboxes++
	writeJSON(w, http.StatusCreated, createdSandbox{TemplateID: t.id, SandboxID: sbx.id, Alias: t.alias, ClientID: "6532622b",
		EnvdVersion: sandboxEnvdVersion, EnvdAccessToken: newID()})
}

// killSandbox is DELETE /sandboxes/{sandboxID} (handlers/sandbox_kill.go).
func (s *Server) killSandbox(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("sandboxID")
	s.lock()
	defer s.mu.Unlock()
	sbx := s.sandboxes[id]
	if sbx == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("Sandbox %q doesn't exist or you don't have access to it", id))
		return
	}
	delete(s.sandboxes, id)
	sbx.tmpl.sandboxes = max(0, sbx.tmpl.sandboxes-1) // SeedSandboxes may have set the count lower
	w.WriteHeader(http.StatusNoContent)
}

// SandboxMachine is a running sandbox's filesystem, for tests that look into it (nil for a
// sandbox of a seeded template).
func (s *Server) SandboxMachine(id string) *sandboxos.Machine {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sbx := s.sandboxes[id]; sbx != nil {
		return sbx.machine
	}
	return nil
}

// Sandbox reports a running sandbox: the template and the build it started from.
func (s *Server) Sandbox(id string) (SandboxInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sbx := s.sandboxes[id]
	if sbx == nil {
		return SandboxInfo{}, false
	}
	return SandboxInfo{SandboxID: sbx.id, TemplateID: sbx.tmpl.id, BuildID: sbx.buildID}, true
}

// RunInSandbox runs command in a running sandbox as envd runs a process the SDK starts
// (commands.run): `/bin/bash -l -c` as the template's user, in its working directory, with the
// create request's envVars as the only environment added to the user's; false for a sandbox of a
// seeded template, which has no filesystem.
func (s *Server) RunInSandbox(id, command string) (sandboxos.Result, bool) {
	s.mu.Lock()
	sbx := s.sandboxes[id]
	s.mu.Unlock()
	if sbx == nil || sbx.machine == nil {
		return sandboxos.Result{}, false
	}
	return sbx.machine.Exec(context.Background(), []string{"/bin/bash", "-l", "-c", command},
		sandboxos.Process{User: sbx.user, Dir: sbx.workdir, Env: sbx.envVars}), true
}
