package e2bemu_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strconv"
	"testing"

	"connectrpc.com/connect"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess/processconnect"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// startedSandbox builds template name (user app in /srv) and starts a secure sandbox from it; it
// returns the sandbox id and its envd access token.
func startedSandbox(t *testing.T, c caller, name string) (id, token string) {
	t.Helper()
	steps := []any{map[string]any{"type": "USER", "args": []string{"app"}}, map[string]any{"type": "WORKDIR", "args": []string{"/srv"}}}
	if status, message, _ := buildOutcome(t, c, name, map[string]any{"fromImage": "python:3.12", "steps": steps}); status != "ready" {
		t.Fatalf("build = %s %q", status, message)
	}
	status, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": name, "secure": true})
	id, _ = out["sandboxID"].(string)
	token, _ = out["envdAccessToken"].(string)
	if status != http.StatusCreated || id == "" || token == "" {
		t.Fatalf("POST /sandboxes = %d %v, want a secure sandbox", status, out)
	}
	return id, token
}

// envdStart is process.Process/Start through the proxy's headers: the command's end event, or the
// error the stream ended with.
func envdStart(t *testing.T, emu *e2bemu.Server, header http.Header, process *envdprocess.ProcessConfig) (*envdprocess.ProcessEvent_EndEvent, error) {
	t.Helper()
	req := connect.NewRequest(&envdprocess.StartRequest{Process: process})
	for name, values := range header {
		req.Header()[name] = values
	}
	stream, err := processconnect.NewProcessClient(http.DefaultClient, emu.URL).Start(context.Background(), req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = stream.Close() }()
	var end *envdprocess.ProcessEvent_EndEvent
	for stream.Receive() {
		if e := stream.Msg().GetEvent().GetEnd(); e != nil {
			end = e
		}
	}
	return end, stream.Err()
}

// TestEnvdBehindTheProxy: the proxy's answers for a sandbox that is not running and a port nothing
// serves (proxy/template, 502), envd's for a missing access token (api/auth.go, 401), an unknown
// Basic auth user (permissions.AuthenticateUsername: unauthenticated) and a cwd that does not
// exist (handler.go New: invalid_argument); a command that fails ends "exit status N".
func TestEnvdBehindTheProxy(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	id, token := startedSandbox(t, c, "envd")
	routed := func(sandbox string, port int, accessToken string) http.Header {
		h := http.Header{"E2b-Sandbox-Id": {sandbox}, "E2b-Sandbox-Port": {strconv.Itoa(port)}}
		if accessToken != "" {
			h.Set("X-Access-Token", accessToken)
		}
		return h
	}
	bash := func(command string) *envdprocess.ProcessConfig {
		return &envdprocess.ProcessConfig{Cmd: "/bin/bash", Args: []string{"-l", "-c", command}}
	}

	for _, h := range []http.Header{routed("inope", e2bemu.EnvdPort, token), routed(id, 8080, token)} {
		if _, err := envdStart(t, emu, h, bash("true")); connect.CodeOf(err) != connect.CodeUnavailable {
			t.Errorf("%v: %v, want the proxy's 502 (unavailable)", h, err)
		}
	}
	if _, err := envdStart(t, emu, routed(id, e2bemu.EnvdPort, ""), bash("true")); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Errorf("without the access token: %v, want unauthenticated", err)
	}
	asNobody := routed(id, e2bemu.EnvdPort, token)
	asNobody.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("nobody-here:")))
	if _, err := envdStart(t, emu, asNobody, bash("true")); connect.CodeOf(err) != connect.CodeUnauthenticated {
		t.Errorf("as an unknown user: %v, want unauthenticated", err)
	}
	missing := "/nowhere"
	if _, err := envdStart(t, emu, routed(id, e2bemu.EnvdPort, token), &envdprocess.ProcessConfig{Cmd: "/bin/true", Cwd: &missing}); connect.CodeOf(err) != connect.CodeInvalidArgument {
		t.Errorf("in a cwd that does not exist: %v, want invalid_argument", err)
	}
	end, err := envdStart(t, emu, routed(id, e2bemu.EnvdPort, token), bash("exit 4"))
	if err != nil || end.GetExitCode() != 4 || end.GetError() != "exit status 4" || !end.GetExited() {
		t.Errorf("exit 4: %v, %v; want exit code 4, error \"exit status 4\"", end, err)
	}
}

// TestSandboxTimeoutIsChecked: a create's timeout must be positive and at most an hour
// (validateAndParseTimeout, the default tier's max_length_hours).
func TestSandboxTimeoutIsChecked(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	startedSandbox(t, c, "timed")
	for timeout, want := range map[int]int{0: http.StatusBadRequest, 3601: http.StatusBadRequest, 3600: http.StatusCreated} {
		if status, _, out, _ := c.call("POST", "/sandboxes", map[string]any{"templateID": "timed", "timeout": timeout}); status != want {
			t.Errorf("timeout %d: %d %v, want %d", timeout, status, out, want)
		}
	}
}
