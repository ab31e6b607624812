package e2bemu_test

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const codeInterpreterStart = "sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh"

// buildOutcome creates and starts a build of name with body and returns its final status info.
func buildOutcome(t *testing.T, c caller, name string, body map[string]any) (status, message, step string) {
	t.Helper()
	b := c.create(map[string]any{"name": name})
	c.start(b, body)
	info := c.status(b)
	reason, _ := info["reason"].(map[string]any)
	message, _ = reason["message"].(string)
	step, _ = reason["step"].(string)
	status, _ = info["status"].(string)
	return status, message, step
}

// TestStartCommandTheImageCannotRun: the code-interpreter start script exists only in E2B's
// code-interpreter images; elsewhere sudo cannot find it (sudo exits 1) and the build fails at
// finalize with the orchestrator's message.
func TestStartCommandTheImageCannotRun(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for _, tt := range []struct {
		image, status string
	}{
		{"python:3.12-slim", "error"},
		{"123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4", "error"}, // an image the catalogue does not know
		{"e2bdev/code-interpreter:latest", "ready"},
		{"docker.io/e2bdev/code-interpreter-beta@sha256:abc", "ready"},
	} {
		status, message, step := buildOutcome(t, c, "ci", map[string]any{"fromImage": tt.image, "startCmd": codeInterpreterStart})
		if status != tt.status {
			t.Errorf("%s = %s %q, want %s", tt.image, status, message, tt.status)
		}
		if tt.status == "error" && (message != "start command failed: error running start command: exit status 1" || step != "finalize") {
			t.Errorf("%s failed with %q at %q, want sudo's exit 1 at finalize", tt.image, message, step)
		}
	}
}

// TestRunStepNeedsItsProgram: a RUN step whose program a known image lacks fails at that step.
func TestRunStepNeedsItsProgram(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	pip := []any{map[string]any{"type": "RUN", "args": []string{"echo hi", "root"}}, map[string]any{"type": "RUN", "args": []string{"pip install numpy", "root"}}}
	if status, message, step := buildOutcome(t, c, "u", map[string]any{"fromImage": "ubuntu:24.04", "steps": pip}); status != "error" ||
		message != "failed to run command 'pip install numpy': exit status 127" || step != "2" {
		t.Errorf("pip on ubuntu = %s %q at %q, want exit 127 at step 2", status, message, step)
	}
	if status, message, _ := buildOutcome(t, c, "p", map[string]any{"fromImage": "python:3.12-slim", "steps": pip}); status != "ready" {
		t.Errorf("pip on python = %s %q, want ready", status, message)
	}
}

// TestStartAndReadyDefaults: no start command runs nothing and readies with "sleep 0"; a start
// command alone readies with "sleep 20"; a build from a template inherits its start metadata unless
// it sets a start or ready command, and setting only the ready command drops the start command.
func TestStartAndReadyDefaults(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	readyLog := func(name string, body map[string]any) (string, e2bemu.BuildInfo) {
		t.Helper()
		b := c.create(map[string]any{"name": name})
		c.start(b, body)
		info := c.status(b)
		entries, _ := info["logEntries"].([]any)
		for _, e := range entries {
			if msg, _ := e.(map[string]any)["message"].(string); strings.HasPrefix(msg, "Waiting for template to be ready: ") {
				tpl, _ := emu.Template(name)
				return strings.TrimPrefix(msg, "Waiting for template to be ready: "), tpl.Builds[len(tpl.Builds)-1]
			}
		}
		tpl, _ := emu.Template(name)
		return "", tpl.Builds[len(tpl.Builds)-1]
	}
	if ready, b := readyLog("plain", fromPython); ready != "" || b.HasStart {
		t.Errorf("no start command: ready %q, %+v; want nothing started", ready, b)
	}
	if ready, _ := readyLog("started", map[string]any{"fromImage": "python:3.12", "startCmd": "python -m http.server"}); ready != "sleep 20" {
		t.Errorf("start command only: ready %q, want sleep 20", ready)
	}
	if ready, _ := readyLog("readyonly", map[string]any{"fromImage": "python:3.12", "readyCmd": "true"}); ready != "true" {
		t.Errorf("ready command only: ready %q, want true", ready)
	}
	if _, b := readyLog("inherits", map[string]any{"fromTemplate": "code-interpreter-v1"}); b.StartCmd != "sudo systemctl start jupyter" || b.ReadyCmd == "" {
		t.Errorf("from code-interpreter-v1: %+v, want its start and ready commands", b)
	}
	if _, b := readyLog("drops", map[string]any{"fromTemplate": "code-interpreter-v1", "readyCmd": "sleep 5"}); b.StartCmd != "" || b.ReadyCmd != "sleep 5" {
		t.Errorf("from code-interpreter-v1 with only a ready command: %+v, want no start command", b)
	}
	if _, b := readyLog("chained", map[string]any{"fromTemplate": "started"}); b.StartCmd != "python -m http.server" {
		t.Errorf("from the team's own template: %+v, want its start command", b)
	}
	if ready, _ := readyLog("nostart", map[string]any{"fromImage": "python:3.12", "readyCmd": "sleep 0"}); ready != "sleep 0" {
		t.Errorf("explicit ready: %q", ready)
	}
}
