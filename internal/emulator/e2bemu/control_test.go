package e2bemu_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// control posts body to a control endpoint without an API key and returns the status.
func control(t *testing.T, emu *e2bemu.Server, name, body string) int {
	t.Helper()
	resp, err := http.Post(emu.URL+e2bemu.ControlPrefix+name, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

func templateInfo(t *testing.T, emu *e2bemu.Server, name string) (e2bemu.TemplateInfo, int) {
	t.Helper()
	resp, err := http.Get(emu.URL + e2bemu.ControlPrefix + "templates/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var info e2bemu.TemplateInfo
	_ = json.NewDecoder(resp.Body).Decode(&info)
	return info, resp.StatusCode
}

// TestControlPathSeedsAndInjects drives every control endpoint over HTTP, as a test of the
// standalone emulator does, and checks the API then behaves accordingly. None of it is recorded.
func TestControlPathSeedsAndInjects(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for _, call := range []struct{ name, body string }{
		{"seed/template", `{"name": "ready"}`},
		{"seed/foreign-template", `{"name": "theirs", "public": true}`},
		{"seed/sandboxes", `{"template": "ready", "count": 2}`},
		{"fail-build", `{"template": "broken", "reason": "no space left on device", "step": "base"}`},
		{"build-concurrency", `{"limit": 3}`},
	} {
		if status := control(t, emu, call.name, call.body); status != http.StatusNoContent {
			t.Fatalf("%s = %d, want 204", call.name, status)
		}
	}
	if info, status := templateInfo(t, emu, "ready"); status != http.StatusOK || info.Sandboxes != 2 || len(info.ReadyTags) != 1 {
		t.Errorf("GET templates/ready = %d %+v, want a ready template with 2 sandboxes", status, info)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/theirs", nil); status != http.StatusForbidden {
		t.Errorf("seeded foreign alias = %d, want 403", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/ready", nil); status != http.StatusBadRequest {
		t.Errorf("delete with seeded sandboxes = %d, want 400", status)
	}
	if status, message, step := buildOutcome(t, c, "broken", fromPython); status != "error" || message != "no space left on device" || step != "base" {
		t.Errorf("after fail-build = %s %q %q", status, message, step)
	}
	for range 3 {
		c.create(map[string]any{"name": "n" + itoa(len(emu.Requests()))})
	}
	if status, _, _, _ := c.call("POST", "/v3/templates", map[string]any{"name": "over"}); status != http.StatusTooManyRequests {
		t.Errorf("over the limit set by control = %d, want 429", status)
	}
	control(t, emu, "build-concurrency", `{"limit": 0}`)

	control(t, emu, "fail-requests", `{"count": 2, "status": 503}`)
	for i := range 2 {
		if status, _, _, _ := c.call("GET", "/templates", nil); status != http.StatusServiceUnavailable {
			t.Errorf("request %d after fail-requests = %d, want 503", i, status)
		}
	}
	if status, _, _, _ := c.call("GET", "/templates", nil); status != http.StatusOK {
		t.Errorf("the request after them = %d, want 200", status)
	}

	control(t, emu, "hang-builds", `{}`)
	control(t, emu, "build-duration", `{"duration": "0s"}`)
	hung := c.create(map[string]any{"name": "hung"})
	c.start(hung, fromPython)
	if got := c.status(hung)["status"]; got != "building" {
		t.Errorf("a build while hang-builds = %v, want building", got)
	}
	control(t, emu, "release-builds", `{}`)
	if got := c.status(hung)["status"]; got != "ready" {
		t.Errorf("after release-builds = %v, want ready", got)
	}

	for _, path := range emu.Requests() {
		if strings.HasPrefix(path.Path, e2bemu.ControlPrefix) {
			t.Errorf("a control request was recorded: %s", path.Path)
		}
	}
}

func TestControlPathRejectsBadCalls(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	for _, call := range []struct {
		name, body string
		want       int
	}{
		{"no-such-control", `{}`, http.StatusNotFound},
		{"fail-build", `{"template": "x"}`, http.StatusBadRequest},        // no reason
		{"build-duration", `{"duration": "soon"}`, http.StatusBadRequest}, // not a duration
		{"fail-requests", `{"count": 1, "status": 200}`, http.StatusBadRequest},
		{"seed/sandboxes", `{"template": "nope", "count": 1}`, http.StatusBadRequest},
		{"seed/template", `{"name": "x", "extra": 1}`, http.StatusBadRequest}, // unknown field
	} {
		if status := control(t, emu, call.name, call.body); status != call.want {
			t.Errorf("%s %s = %d, want %d", call.name, call.body, status, call.want)
		}
	}
	if _, status := templateInfo(t, emu, "nope"); status != http.StatusNotFound {
		t.Errorf("GET templates/nope = %d, want 404", status)
	}
	resp, err := http.Get(emu.URL + e2bemu.ControlPrefix + "fail-build")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET fail-build = %d, want 405", resp.StatusCode)
	}
}

// TestBuildDurationControl: a build started after build-duration takes that long on the clock.
func TestBuildDurationControl(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, Clock: clock.Now})
	c := newCaller(t, emu)
	control(t, emu, "build-duration", `{"duration": "1m"}`)
	b := c.create(map[string]any{"name": "slow"})
	c.start(b, fromPython)
	clock.Advance(59 * time.Second)
	if got := c.status(b)["status"]; got != "building" {
		t.Errorf("before a minute = %v, want building", got)
	}
	clock.Advance(time.Second)
	if got := c.status(b)["status"]; got != "ready" {
		t.Errorf("after a minute = %v, want ready", got)
	}
}

// TestEchoRequestBodies: with echo on, an error answer repeats the request body (and so any
// secret in it); success answers and answers with echo off do not.
func TestEchoRequestBodies(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	bad := map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "registry", "username": "u", "password": "hunter2"}, "fromTemplate": "b"}
	message := func(body map[string]any) string { m, _ := body["message"].(string); return m }
	if _, _, body, _ := c.call("POST", b.startPath(), bad); message(body) == "" || strings.Contains(message(body), "hunter2") {
		t.Fatalf("echo off, the message has the password: %v", body)
	}
	if status := control(t, emu, "echo-request-bodies", `{"enabled": true}`); status != http.StatusNoContent {
		t.Fatalf("echo-request-bodies = %d", status)
	}
	status, _, body, _ := c.call("POST", b.startPath(), bad)
	if msg, _ := body["message"].(string); status != http.StatusBadRequest || !strings.Contains(msg, "hunter2") || body["code"] != float64(400) {
		t.Errorf("echo on = %d %v, want a 400 whose message carries the body", status, body)
	}
	emu.FailNext(1, http.StatusInternalServerError)
	if _, _, body, _ := c.call("POST", b.startPath(), bad); !strings.Contains(message(body), "hunter2") {
		t.Errorf("an injected 500 with echo on = %v, want the body echoed", body)
	}
	// The bad start claimed its build before refusing its sources (setTemplateSource): a new one.
	if status, _, body, _ := c.call("POST", c.create(map[string]any{"name": "py"}).startPath(), fromPython); status != http.StatusAccepted {
		t.Errorf("a good start with echo on = %d %v, want 202", status, body)
	}
}
