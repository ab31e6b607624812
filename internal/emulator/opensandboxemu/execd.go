package opensandboxemu

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strconv"
)

// ExecdPort is the port execd listens on inside a sandbox (Go SDK DefaultExecdPort).
const ExecdPort = 44772

// ExecdTokenHeader carries the execd access token (execd spec securitySchemes.AccessToken).
const ExecdTokenHeader = "X-EXECD-ACCESS-TOKEN"

// execd resolves the sandbox of an execd route and checks its access token.
func (s *Server) execd(h func(http.ResponseWriter, *http.Request, *Sandbox)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		sb := s.liveSandbox(r.PathValue("sandboxId"), w)
		state := ""
		if sb != nil {
			s.observe(sb)
			state = sb.State
		}
		s.mu.Unlock()
		if sb == nil {
			return
		}
		if state != StateRunning {
			// execd runs inside the container: nothing answers once it stopped (or before it started).
			writeError(w, http.StatusBadGateway, "SANDBOX_UNREACHABLE", "sandbox "+sb.ID+" is "+state+": connection refused")
			return
		}
		if r.Header.Get(ExecdTokenHeader) != sb.accessToken {
			writeError(w, http.StatusUnauthorized, "UNAUTHORIZED", "missing or invalid "+ExecdTokenHeader)
			return
		}
		h(w, r, sb)
	}
}

func (s *Server) ping(w http.ResponseWriter, _ *http.Request, _ *Sandbox) {
	w.WriteHeader(http.StatusOK)
}

// runCommandRequest is execd's RunCommandRequest.
type runCommandRequest struct {
	Command *string           `json:"command"`
	Cwd     string            `json:"cwd"`
	UID     *uint32           `json:"uid"`
	GID     *uint32           `json:"gid"`
	Envs    map[string]string `json:"envs"`
	Timeout *int64            `json:"timeout"`
	// Background detaches the command: the stream carries only its init event (its id), and
	// GET /command/status/{id} and /command/{id}/logs tell how it runs (background.go).
	Background bool `json:"background"`
}

// runCommand answers POST /command with execd's stream: one JSON event per block, each followed
// by a blank line. A non-zero exit is an error event whose evalue is the exit code and whose
// traceback is Go's "exit status N", as execd sends (command.go).
func (s *Server) runCommand(w http.ResponseWriter, r *http.Request, sb *Sandbox) {
	body, _ := io.ReadAll(r.Body)
	var req runCommandRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Command == nil {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_BODY", "error parsing request, MAYBE invalid body format")
		return
	}
	s.mu.Lock()
	// model/codeinterpreting.go RunCommandRequest.Validate: the command is required (not empty), a
	// gid needs a uid, the cwd must be a folder.
	problem := ""
	switch {
	case *req.Command == "":
		problem = "Key: 'RunCommandRequest.Command' Error:Field validation for 'Command' failed on the 'required' tag"
	case req.GID != nil && req.UID == nil:
		problem = "uid is required when gid is provided"
	case req.Cwd != "" && !sb.machine.FS().IsDir(path.Clean(req.Cwd)):
		problem = fmt.Sprintf("working directory does not exist: %s: stat %s: no such file or directory", req.Cwd, req.Cwd)
	}
	if problem != "" {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_BODY", "invalid request, validation error "+problem)
		return
	}
	cmd := Command{Command: *req.Command, Cwd: req.Cwd, UID: req.UID, GID: req.GID, Envs: req.Envs, Timeout: req.Timeout, Background: req.Background}
	sb.Commands = append(sb.Commands, cmd)
	sb.Calls = append(sb.Calls, ExecdCall{Command: &cmd})
	id := fmt.Sprintf("cmd-%s-%d", sb.ID, len(sb.Commands))
	s.mu.Unlock()

	result := s.runInSandbox(r.Context(), sb, req)
	s.recordStatus(sb, id, cmd, result)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	event := func(v map[string]any) {
		v["timestamp"] = 1700000000000
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n', '\n'))
	}
	event(map[string]any{"type": "init", "text": id})
	if req.Background {
		return // OSB web/controller/command.go: a detached command's stream ends after its init
	}
	for _, line := range result.Stdout {
		event(map[string]any{"type": "stdout", "text": line})
	}
	for _, line := range result.Stderr {
		event(map[string]any{"type": "stderr", "text": line})
	}
	if result.Serving { // a foreground command that never ends (sleep infinity, a server): the stream stays open
		holdOpen(w, r)
		return
	}
	if result.ExitCode != 0 {
		code := strconv.Itoa(result.ExitCode)
		event(map[string]any{"type": "error", "error": map[string]any{
			"ename": "CommandExecError", "evalue": code, "traceback": []string{"exit status " + code},
		}})
		return
	}
	event(map[string]any{"type": "execution_complete", "execution_time": 5})
}

// holdOpen keeps a foreground command's stream open after the output so far, as execd streams a
// command that has not ended (components/execd/pkg/runtime/command.go reads its pipes until the
// process exits), until the client goes: it disconnects, or its request is cancelled.
func holdOpen(w http.ResponseWriter, r *http.Request) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	<-r.Context().Done()
}
