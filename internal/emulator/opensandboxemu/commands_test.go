package opensandboxemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// execdRun posts body to a sandbox's execd /command and returns the status, the stdout lines and
// the exit code (0 when the stream completes).
func execdRun(t *testing.T, s *Server, id string, body map[string]any) (status int, stdout []string, stderr []string, code string) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.URL+"/execd/"+id+"/command", bytes.NewReader(b))
	req.Header.Set(ExecdTokenHeader, "execd-token-"+id)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	stream, _ := io.ReadAll(resp.Body)
	code = "0"
	for _, block := range strings.Split(strings.TrimSpace(string(stream)), "\n\n") {
		var ev map[string]any
		_ = json.Unmarshal([]byte(block), &ev)
		switch ev["type"] {
		case "stdout":
			text, _ := ev["text"].(string)
			stdout = append(stdout, text)
		case "stderr":
			text, _ := ev["text"].(string)
			stderr = append(stderr, text)
		case "error":
			code, _ = at(t, ev, "error", "evalue").(string)
		}
	}
	return resp.StatusCode, stdout, stderr, code
}

// TestCommandsRunThroughBash: execd runs a command with bash -c in the sandbox's image
// (runtime/command.go), with the request's envs and cwd, so the shell's grammar, the image's
// programs and what earlier commands left decide the outcome.
func TestCommandsRunThroughBash(t *testing.T) {
	s := NewTestServer(t, Options{})
	sandbox := func(image string) string {
		return createFrom(t, s, map[string]any{"image": map[string]any{"uri": image}}, []string{"tail", "-f", "/dev/null"})
	}
	ubuntu, alpine, node := sandbox("ubuntu:24.04"), sandbox("python:3.12-alpine"), sandbox("node:20")
	for _, tt := range []struct {
		id     string
		body   map[string]any
		code   string
		stdout string
	}{
		{ubuntu, map[string]any{"command": "cd /opt; python3 -V"}, "127", ""},
		{ubuntu, map[string]any{"command": "sh -c 'exit 4'"}, "4", ""},
		{ubuntu, map[string]any{"command": "false || true"}, "0", ""},
		{ubuntu, map[string]any{"command": "false; echo after"}, "0", "after"},
		{ubuntu, map[string]any{"command": "echo $A", "envs": map[string]string{"A": "1"}}, "0", "1"},
		{ubuntu, map[string]any{"command": "pwd", "cwd": "/etc"}, "0", "/etc"},
		{ubuntu, map[string]any{"command": "getent passwd ubuntu nobody www-data | wc -l"}, "0", "3"},
		{ubuntu, map[string]any{"command": "echo x > /srv/f"}, "0", ""},
		{ubuntu, map[string]any{"command": "cat /srv/f"}, "0", "x"},
		{ubuntu, map[string]any{"command": "id -u", "uid": 1000}, "0", "1000"},
		{alpine, map[string]any{"command": "apt-get update && apt-get install -y curl"}, "127", ""},
		{alpine, map[string]any{"command": "apk add --no-cache git >/dev/null && git --version"}, "0", "git version 2.39.5"},
		{node, map[string]any{"command": "node --version"}, "0", "v20.19.5"},
		{node, map[string]any{"command": "command -v npm git curl useradd | wc -l"}, "0", "4"},
	} {
		status, stdout, stderr, code := execdRun(t, s, tt.id, tt.body)
		if status != 200 || code != tt.code || (tt.stdout != "" && strings.Join(stdout, "\n") != tt.stdout) {
			t.Errorf("%v: %d exit %s, stdout %q, stderr %q; want exit %s, stdout %q", tt.body, status, code, stdout, stderr, tt.code, tt.stdout)
		}
	}
	status, _, _, _ := execdRun(t, s, ubuntu, map[string]any{"command": ""})
	if status != 400 {
		t.Errorf("an empty command = %d, want 400 (RunCommandRequest's required command)", status)
	}
}

// TestASnapshotKeepsWhatCommandsInstalled: a restore starts from the snapshot's filesystem.
func TestASnapshotKeepsWhatCommandsInstalled(t *testing.T) {
	s := NewTestServer(t, Options{})
	src := createFrom(t, s, map[string]any{"image": map[string]any{"uri": "python:3.12-slim"}}, []string{"tail", "-f", "/dev/null"})
	if _, _, _, code := execdRun(t, s, src, map[string]any{"command": "pip install numpy && useradd -m app"}); code != "0" {
		t.Fatalf("install: exit %s", code)
	}
	_, snap, _ := call(t, s, "POST", "/v1/sandboxes/"+src+"/snapshots", "", map[string]string{"name": "np"})
	snapID, _ := snap["id"].(string)
	call(t, s, "GET", "/v1/snapshots/"+snapID, "", nil)
	restored := createFrom(t, s, map[string]any{"snapshotId": snapID}, nil)
	if _, out, errs, code := execdRun(t, s, restored, map[string]any{"command": "python -c 'import numpy' && id -u app"}); code != "0" || strings.Join(out, "") != "1000" {
		t.Errorf("restored: exit %s %q %q, want numpy and app there", code, out, errs)
	}
}

// TestUnknownImagesDoNotPull: a repository Docker Hub does not have, or a tag its official image
// never had, fails the create as the Docker runtime's pull does.
func TestUnknownImagesDoNotPull(t *testing.T) {
	s := NewTestServer(t, Options{})
	for image, want := range map[string]string{
		"pyhton:3.12": "pull access denied for pyhton, repository does not exist",
		"python:2.9":  "manifest for python:2.9 not found: manifest unknown",
	} {
		body := map[string]any{"image": map[string]any{"uri": image}, "entrypoint": []string{"tail", "-f", "/dev/null"}, "resourceLimits": map[string]string{}}
		status, got, _ := call(t, s, "POST", "/v1/sandboxes", "", body)
		msg, _ := got["message"].(string)
		if status != 500 || got["code"] != "DOCKER::SANDBOX_IMAGE_PULL_FAILED" || !strings.Contains(msg, want) {
			t.Errorf("%s: %d %v, want 500 with %q", image, status, got, want)
		}
	}
}

// TestDeclaredImages: the images control declares what a private image holds.
func TestDeclaredImages(t *testing.T) {
	s := NewTestServer(t, Options{})
	if status, _, _ := call(t, s, "POST", ControlPath+"images", "", map[string]any{"ref": "ghcr.io/acme/web:1", "family": "alpine",
		"programs": []string{"node"}, "users": []string{"web"}, "entrypoint": []string{"node", "/srv/server.js"}}); status != 204 {
		t.Fatalf("declare = %d", status)
	}
	id := createFrom(t, s, map[string]any{"image": map[string]any{"uri": "ghcr.io/acme/web:1"}}, []string{"tail", "-f", "/dev/null"})
	if _, out, errs, code := execdRun(t, s, id, map[string]any{"command": "node --version && id -u web && apk --version >/dev/null && ! command -v python3"}); code != "0" {
		t.Errorf("declared image: exit %s %q %q", code, out, errs)
	}
}
