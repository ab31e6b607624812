package opensandboxemu

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// execd keeps a record of every command it ran, by the id its stream's init event carried (OSB
// components/execd/pkg/runtime/command_status.go): whether it still runs, its exit code and its
// output. A detached (background) command starts as an entrypoint does, so one that serves keeps
// running (sandboxos.Process.Service) and one that ends has ended by the time it is asked about.

// commandStatus is execd's record of one command.
type commandStatus struct {
	content  string
	running  bool
	exitCode int
	output   []string // stdout then stderr, as execd's combined output file holds them
	started  time.Time
}

// recordStatus keeps what GET /command/status/{id} and /command/{id}/logs answer.
func (s *Server) recordStatus(sb *Sandbox, id string, cmd Command, r CommandResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb.statuses == nil {
		sb.statuses = map[string]commandStatus{}
	}
	sb.statuses[id] = commandStatus{content: cmd.Command, running: r.Serving, exitCode: r.ExitCode,
		output: append(append([]string(nil), r.Stdout...), r.Stderr...), started: time.Now()}
}

// commandRecord serves GET /command/status/{id} and /command/{id}/logs (one pattern: Go's mux
// cannot tell the two apart, as /command/status/logs matches both).
func (s *Server) commandRecord(w http.ResponseWriter, r *http.Request, sb *Sandbox) {
	switch first, second := r.PathValue("first"), r.PathValue("second"); {
	case first == "status":
		s.commandStatus(w, second, sb)
	case second == "logs":
		s.commandLogs(w, r, first, sb)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	}
}

// commandStatus answers GET /command/status/{id} (web/controller/command.go GetCommandStatus):
// CommandStatusResponse, or 404 for an id it never gave.
func (s *Server) commandStatus(w http.ResponseWriter, id string, sb *Sandbox) {
	st, ok := s.status(sb, id)
	if !ok {
		writeError(w, http.StatusNotFound, "INVALID_REQUEST_BODY", "command not found: "+id)
		return
	}
	body := map[string]any{"id": id, "content": st.content, "running": st.running,
		"started_at": st.started.UTC().Format(time.RFC3339)}
	if !st.running {
		body["exit_code"], body["finished_at"] = st.exitCode, st.started.UTC().Format(time.RFC3339)
		if st.exitCode != 0 {
			body["error"] = "exit status " + strconv.Itoa(st.exitCode)
		}
	}
	writeJSON(w, http.StatusOK, body)
}

// commandLogs answers GET /command/{id}/logs (GetBackgroundCommandOutput): the output as plain
// text from the line cursor on, and the last line's index in EXECD-COMMANDS-TAIL-CURSOR; a 400 for
// an id it never gave (SeekBackgroundCommandOutput's error).
func (s *Server) commandLogs(w http.ResponseWriter, r *http.Request, id string, sb *Sandbox) {
	st, ok := s.status(sb, id)
	if !ok {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_BODY", "command not found: "+id)
		return
	}
	cursor, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
	lines := st.output[min(max(cursor, 0), len(st.output)):]
	w.Header().Set("EXECD-COMMANDS-TAIL-CURSOR", strconv.Itoa(len(st.output)))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	if len(lines) > 0 {
		_, _ = w.Write([]byte(strings.Join(lines, "\n") + "\n"))
	}
}

func (s *Server) status(sb *Sandbox, id string) (commandStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := sb.statuses[id]
	return st, ok
}
