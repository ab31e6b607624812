package opensandboxemu

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

func createFrom(t *testing.T, s *Server, source map[string]any, entrypoint []string) string {
	t.Helper()
	body := map[string]any{"resourceLimits": map[string]string{"cpu": "1"}}
	for k, v := range source {
		body[k] = v
	}
	if entrypoint != nil {
		body["entrypoint"] = entrypoint
	}
	status, created, _ := call(t, s, "POST", "/v1/sandboxes", "", body)
	if status != 202 || at(t, created, "status", "state") != StateRunning {
		t.Fatalf("create %v: %d %v", body, status, created)
	}
	id, _ := created["id"].(string)
	return id
}

func stateOf(t *testing.T, s *Server, id string) map[string]any {
	t.Helper()
	_, got, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil)
	st, _ := got["status"].(map[string]any)
	return st
}

func TestTheSandboxEndsWithItsEntrypoint(t *testing.T) {
	const ci = "/opt/code-interpreter/code-interpreter.sh"
	s := NewTestServer(t, Options{Images: map[string]sandboxos.Declaration{"registry.example.com/team/ci:1": {Programs: []string{ci}}}})
	for _, tt := range []struct {
		image      string
		entrypoint []string
		state      string
		message    string
	}{
		{"python:3.12-slim", []string{ci}, StateFailed, "exited with code 127"},
		{"python:3.12-slim", []string{"sh", "-c", ci + " --port 44771"}, StateFailed, "exited with code 127"},
		{"python:3.12-slim", []string{"sh", "-c", "echo started"}, StateTerminated, "exited successfully"},
		{"python:3.12-slim", []string{"tail", "-f", "/dev/null"}, StateRunning, ""},
		{"python:3.12-slim", []string{"sh", "-c", "exec python3 -m http.server"}, StateRunning, ""},
		{"ubuntu:24.04", []string{"python3", "-m", "http.server"}, StateFailed, "exited with code 127"},
		{"opensandbox/code-interpreter:v1.1.0", []string{ci}, StateRunning, ""},
		{"registry.example.com/team/ci:1", []string{ci}, StateRunning, ""},
	} {
		id := createFrom(t, s, map[string]any{"image": map[string]any{"uri": tt.image}}, tt.entrypoint)
		st := stateOf(t, s, id)
		msg, _ := st["message"].(string)
		if st["state"] != tt.state || (tt.message != "" && !strings.Contains(msg, tt.message)) {
			t.Errorf("%s with %q: %v, want %s %q", tt.image, tt.entrypoint, st, tt.state, tt.message)
		}
		if tt.state != StateRunning {
			if status, _, _ := call(t, s, "POST", "/v1/sandboxes/"+id+"/snapshots", "", nil); status != 409 {
				t.Errorf("snapshot of an ended sandbox: %d, want 409", status)
			}
		}
	}
}

func TestRestoreWithoutEntrypointRunsTail(t *testing.T) {
	s := NewTestServer(t, Options{})
	src := createFrom(t, s, map[string]any{"image": map[string]any{"uri": "opensandbox/code-interpreter:v1.1.0"}},
		[]string{"/opt/code-interpreter/code-interpreter.sh"})
	_, snap, _ := call(t, s, "POST", "/v1/sandboxes/"+src+"/snapshots", "", map[string]string{"name": "ci"})
	snapID, _ := snap["id"].(string)
	if status, body, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"snapshotId": snapID, "resourceLimits": map[string]string{}}); status != 409 || body["code"] != "SNAPSHOT::NOT_READY" {
		t.Fatalf("restore of a Creating snapshot: %d %v", status, body)
	}
	call(t, s, "GET", "/v1/snapshots/"+snapID, "", nil) // Ready

	plain := createFrom(t, s, map[string]any{"snapshotId": snapID}, nil)
	_, got, _ := call(t, s, "GET", "/v1/sandboxes/"+plain, "", nil)
	if ep, _ := got["entrypoint"].([]any); len(ep) != 3 || ep[0] != "tail" || got["image"] != nil || got["snapshotId"] != snapID {
		t.Errorf("restored without entrypoint: %v", got)
	}
	// The snapshot holds the code-interpreter image's files, so its entrypoint runs when passed.
	withCI := createFrom(t, s, map[string]any{"snapshotId": snapID}, []string{"/opt/code-interpreter/code-interpreter.sh"})
	if st := stateOf(t, s, withCI); st["state"] != StateRunning {
		t.Errorf("restored with the code-interpreter entrypoint: %v", st)
	}
}

func TestAnEntrypointMayEndAfterCreateAnswered(t *testing.T) {
	s := NewTestServer(t, Options{EntrypointExitsAfter: 1})
	id := createFrom(t, s, map[string]any{"image": map[string]any{"uri": "python:3.12-slim"}}, []string{"/opt/code-interpreter/code-interpreter.sh"})
	for i, want := range []string{StateRunning, StateFailed, StateFailed} {
		if st := stateOf(t, s, id); st["state"] != want {
			t.Errorf("GET %d: %v, want %s", i+1, st, want)
		}
	}
}
