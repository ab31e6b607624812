package opensandboxemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// execdGet asks a sandbox's execd for path and returns the status, the header
// EXECD-COMMANDS-TAIL-CURSOR and the body.
func execdGet(t *testing.T, s *Server, id, path string) (int, string, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+"/execd/"+id+path, nil)
	req.Header.Set(ExecdTokenHeader, "execd-token-"+id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("EXECD-COMMANDS-TAIL-CURSOR"), body
}

// startDetached posts a background command and returns the id of its stream's init event, the
// only event execd sends for one (web/controller/command.go).
func startDetached(t *testing.T, s *Server, id, command string) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"command": command, "background": true})
	req, _ := http.NewRequest("POST", s.URL+"/execd/"+id+"/command", bytes.NewReader(b))
	req.Header.Set(ExecdTokenHeader, "execd-token-"+id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	stream, _ := io.ReadAll(resp.Body)
	blocks := strings.Split(strings.TrimSpace(string(stream)), "\n\n")
	var ev map[string]any
	if len(blocks) != 1 || json.Unmarshal([]byte(blocks[0]), &ev) != nil || ev["type"] != "init" {
		t.Fatalf("background stream %q, want one init event", stream)
	}
	cmd, _ := ev["text"].(string)
	return cmd
}

// TestBackgroundCommands: a detached command runs as an entrypoint does; execd tells whether it
// still runs, how it ended and what it printed (runtime/command_status.go). A server keeps
// running; a command that ends has an exit code and its output.
func TestBackgroundCommands(t *testing.T) {
	s := NewTestServer(t, Options{})
	id := createFrom(t, s, map[string]any{"image": map[string]any{"uri": "python:3.12"}}, []string{"tail", "-f", "/dev/null"})
	status := func(cmd string) map[string]any {
		code, _, body := execdGet(t, s, id, "/command/status/"+cmd)
		var v map[string]any
		if code != http.StatusOK || json.Unmarshal(body, &v) != nil {
			t.Fatalf("status %s = %d %s", cmd, code, body)
		}
		return v
	}
	server := startDetached(t, s, id, "python3 -m http.server 8000")
	if st := status(server); st["running"] != true || st["exit_code"] != nil || st["content"] != "python3 -m http.server 8000" {
		t.Errorf("server status = %v, want running", st)
	}

	ended := startDetached(t, s, id, "echo starting; uvicorn app:app")
	if st := status(ended); st["running"] != false || st["exit_code"] != float64(127) {
		t.Errorf("a start command the image lacks = %v, want ended with 127", st)
	}
	code, cursor, logs := execdGet(t, s, id, "/command/"+ended+"/logs")
	if code != http.StatusOK || cursor != "2" || !strings.HasPrefix(string(logs), "starting\n") || !strings.Contains(string(logs), "uvicorn: command not found") {
		t.Errorf("logs = %d cursor %s %q, want its stdout and stderr", code, cursor, logs)
	}
	if code, _, _ := execdGet(t, s, id, "/command/status/cmd-nope"); code != http.StatusNotFound {
		t.Errorf("an unknown id = %d, want 404", code)
	}
}
