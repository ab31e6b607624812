package e2bemu_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

func asUser(cmd, user string) map[string]any {
	return map[string]any{"type": "RUN", "args": []string{cmd, user}}
}

// TestRunStepsRunInTheImage: a RUN step is `/bin/bash -l -c` in the build's sandbox
// (commands/run.go); a non-zero exit fails the build at that step (sandboxtools/command.go), with
// the command's stderr in the log.
func TestRunStepsRunInTheImage(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for _, tt := range []struct {
		image, cmd, status, message string
	}{
		{"python:3.12", "exit 3", "error", "failed to run command 'exit 3': exit status 3"},
		{"python:3.12", "false", "error", "failed to run command 'false': exit status 1"},
		{"python:3.12", "test -f /missing", "error", "failed to run command 'test -f /missing': exit status 1"},
		{"python:3.12", "false || true", "ready", ""},
		{"python:3.12-alpine", "apt-get update && apt-get install -y curl", "error", "failed to run command 'apt-get update && apt-get install -y curl': exit status 127"},
		{"python:3.12-alpine", "apk add --no-cache ffmpeg && ffmpeg -version", "ready", ""},
		{"node:20", "node --version && npm --version && git --version", "ready", ""},
		{"ubuntu:24.04", "pip install numpy", "error", "failed to run command 'pip install numpy': exit status 127"},
	} {
		status, message, step := buildOutcome(t, c, "run", map[string]any{"fromImage": tt.image, "steps": []any{asUser(tt.cmd, "root")}})
		if status != tt.status || message != tt.message || (tt.status == "error" && step != "1") {
			t.Errorf("%s on %s = %s %q at %q, want %s %q", tt.cmd, tt.image, status, message, step, tt.status, tt.message)
		}
	}
}

// TestUnknownImagesDoNotPull: a repository Docker Hub does not have answers UNAUTHORIZED, a tag
// an official image never had MANIFEST_UNKNOWN; the build fails at base in oci.go's words.
func TestUnknownImagesDoNotPull(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for image, want := range map[string]string{
		"pyhton:3.12": "access denied to 'pyhton:3.12': authentication required or insufficient permissions",
		"python:2.9":  "image 'python:2.9' not found: the image or tag does not exist in the registry",
	} {
		if status, message, step := buildOutcome(t, c, "pull", map[string]any{"fromImage": image}); status != "error" || message != want || step != "base" {
			t.Errorf("%s = %s %q at %q, want %q at base", image, status, message, step, want)
		}
	}
}

// TestWhatAStepInstallsStaysForTheNextAndForSandboxes: steps share the build's filesystem; the
// start and ready commands run on it as the last user; a sandbox started from the template gets
// it; a cached layer brings what it left.
func TestWhatAStepInstallsStaysForTheNextAndForSandboxes(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	steps := []any{asUser("pip install flask", "root"), runStep("python -c 'import flask' && echo hi > ~/note"),
		map[string]any{"type": "WORKDIR", "args": []string{"app"}}, runStep("test -f /home/user/note")}
	body := map[string]any{"fromImage": "python:3.12-slim", "steps": steps, "startCmd": "python -m http.server 8000",
		"readyCmd": "curl -sf http://localhost:8000"}
	if status, message, step := buildOutcome(t, c, "flask", body); status != "ready" {
		t.Fatalf("build = %s %q at %q", status, message, step)
	}
	_, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": "flask"})
	id, _ := out["sandboxID"].(string)
	m := emu.SandboxMachine(id)
	if m == nil {
		t.Fatal("the sandbox has no filesystem")
	}
	if r := m.Run(context.Background(), "python -c 'import flask' && test -d /app && curl -sf localhost:8000", sandboxos.Process{User: "user"}); r.ExitCode != 0 {
		t.Errorf("in the sandbox: %+v, want flask, the workdir and the started server", r)
	}
	// The same steps again come from the cache, with what they left.
	again := append(append([]any{}, steps...), runStep("python -c 'import flask'"))
	if status, message, _ := buildOutcome(t, c, "again", map[string]any{"fromImage": "python:3.12-slim", "steps": again}); status != "ready" {
		t.Errorf("a build on cached layers = %s %q", status, message)
	}
}

// TestAUserStepHasNoSudo: a user made by a USER step gets no sudo (commands/user.go: only the
// default user is in sudoers), so the code-interpreter's start command, run as the last user
// (finalize/builder.go), fails at finalize: the trap of issue 27's first provider fix.
func TestAUserStepHasNoSudo(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	body := map[string]any{"fromImage": "e2bdev/code-interpreter:latest", "startCmd": codeInterpreterStart,
		"steps": []any{map[string]any{"type": "USER", "args": []string{"app"}}}}
	b := c.create(map[string]any{"name": "ci-app"})
	c.start(b, body)
	info := c.status(b)
	message, step := reasonOf(info)
	if info["status"] != "error" || step != "finalize" || message != "start command failed: error running start command: exit status 1" {
		t.Errorf("build = %s %q at %q, want the start command to fail at finalize", info["status"], message, step)
	}
	if logs, _ := info["logs"].([]any); !strings.Contains(fmt.Sprint(logs), "sudo: a password is required") {
		t.Errorf("logs %v, want sudo's refusal", logs)
	}
	delete(body, "steps")
	if status, message, _ := buildOutcome(t, c, "ci", body); status != "ready" {
		t.Errorf("as the default user = %s %q, want ready", status, message)
	}
}

// TestDeclaredImages: a private image is assumed to be Debian with Python until declared; the
// images control declares its family, programs and users.
func TestDeclaredImages(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	const image = "ghcr.io/acme/web:1"
	steps := []any{asUser("node --version && getent passwd web", "root")}
	if status, message, _ := buildOutcome(t, c, "web", map[string]any{"fromImage": image, "steps": steps}); status != "error" ||
		message != "failed to run command 'node --version && getent passwd web': exit status 127" {
		t.Errorf("undeclared = %s %q, want node missing", status, message)
	}
	if status, _, _, _ := c.call("POST", e2bemu.ControlPrefix+"images", map[string]any{"ref": "ghcr.io/acme/web",
		"family": "alpine", "programs": []string{"node"}, "users": []string{"web"}}); status != 204 && status != 200 {
		t.Fatalf("declare = %d", status)
	}
	if status, message, _ := buildOutcome(t, c, "web", map[string]any{"fromImage": image, "steps": steps, "force": true}); status != "ready" {
		t.Errorf("declared = %s %q, want ready", status, message)
	}
	if status, _, _, _ := c.call("POST", e2bemu.ControlPrefix+"images", map[string]any{"ref": "x", "family": "windows"}); status/100 == 2 {
		t.Errorf("an unknown family was accepted: %d", status)
	}
}
