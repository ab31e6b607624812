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

// TestTheDefaultShell: what bash answers for a command in a sandbox of an image, the image
// catalogue deciding what the command finds (execd command.go runs it with bash -c).
func TestTheDefaultShell(t *testing.T) {
	s := New(Options{})
	for _, tt := range []struct {
		image, cmd string
		want       CommandResult
	}{
		{"ubuntu:24.04", "echo hello world", CommandResult{Stdout: []string{"hello world"}}},
		{"ubuntu:24.04", "exit 3", CommandResult{ExitCode: 3}},
		{"ubuntu:24.04", "false", CommandResult{ExitCode: 1}},
		{"python:3.12", "pip install x", CommandResult{}},
		{"python:3.12", "PIP_NO_INPUT=1 python3 -m pip install x", CommandResult{}},
		{"opensandbox/code-interpreter:v1.1.0", "python3 -m pip install x", CommandResult{}},
		{"ubuntu:24.04", "python3 -m pip install x", CommandResult{ExitCode: 127, Stderr: []string{"bash: line 1: python3: command not found"}}},
		{"ubuntu:24.04", "PIP_NO_INPUT=1 pip install x", CommandResult{ExitCode: 127, Stderr: []string{"bash: line 1: pip: command not found"}}},
		{"python:3.12", "/opt/setup.sh", CommandResult{ExitCode: 127, Stderr: []string{"bash: line 1: /opt/setup.sh: No such file or directory"}}},
	} {
		got := s.runIn(tt.image, tt.cmd, nil)
		if got.ExitCode != tt.want.ExitCode || strings.Join(got.Stdout, "|") != strings.Join(tt.want.Stdout, "|") ||
			strings.Join(got.Stderr, "|") != strings.Join(tt.want.Stderr, "|") {
			t.Errorf("%q on %s: %+v, want %+v", tt.cmd, tt.image, got, tt.want)
		}
	}
}
