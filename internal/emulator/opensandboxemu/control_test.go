package opensandboxemu

import (
	"strings"
	"testing"
)

func TestControlsFromOutside(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	// No key needed, and not recorded.
	if status, _, _ := call(t, s, "POST", "/_emulator/faults", "", map[string]any{
		"method": "POST", "pathPrefix": "/sandboxes", "status": 502, "count": 1, "echoBody": true}); status != 204 {
		t.Fatalf("arming a fault: %d", status)
	}
	status, body, _ := call(t, s, "POST", "/v1/sandboxes", "k", validCreate)
	if msg, _ := body["message"].(string); status != 502 || !strings.Contains(msg, `"password":"p"`) {
		t.Errorf("the fault should echo the request body: %d %v", status, body)
	}
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes", "k", validCreate); status != 202 {
		t.Errorf("the fault is consumed: %d", status)
	}

	_, seeded, _ := call(t, s, "POST", "/_emulator/snapshots", "", map[string]any{"name": "py", "image": "python:3.12"})
	id, _ := seeded["id"].(string)
	if _, got, _ := call(t, s, "GET", "/v1/snapshots/"+id, "k", nil); got["name"] != "py" || at(t, got, "status", "state") != SnapshotReady {
		t.Errorf("seeded snapshot: %v", got)
	}

	if _, st, _ := call(t, s, "PUT", "/_emulator/settings", "", map[string]any{"maxSandboxTimeoutSeconds": 600}); st["maxSandboxTimeoutSeconds"] != float64(600) || st["ignoreSnapshotNameFilter"] != false {
		t.Errorf("settings: %v", st)
	}
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes", "k", map[string]any{"snapshotId": id, "resourceLimits": map[string]string{}, "timeout": 601}); status != 400 {
		t.Errorf("the cap set from outside: %d", status)
	}
	if status, _, _ := call(t, s, "POST", "/_emulator/faults", "", map[string]any{"status": 200, "count": 1}); status != 400 {
		t.Errorf("a fault that cannot fail: %d", status)
	}
	for _, r := range s.Requests() {
		if strings.HasPrefix(r.Path, ControlPath) {
			t.Errorf("control request recorded: %s %s", r.Method, r.Path)
		}
	}
	if n := len(s.Requests()); n != 4 {
		t.Errorf("%d recorded requests, want the 4 API calls", n)
	}
}
