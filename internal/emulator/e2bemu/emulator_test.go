package e2bemu_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const apiKey = "e2b_emulator_test_key"

type caller struct {
	t      *testing.T
	url    string
	client *http.Client
	key    string
}

func (c caller) call(method, path string, body any) (int, http.Header, map[string]any, []any) {
	c.t.Helper()
	var payload io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		payload = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.url+path, payload)
	if c.key != "" {
		req.Header.Set("X-API-Key", c.key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var obj map[string]any
	var arr []any
	if len(raw) > 0 && raw[0] == '[' {
		_ = json.Unmarshal(raw, &arr)
	} else {
		_ = json.Unmarshal(raw, &obj)
	}
	return resp.StatusCode, resp.Header, obj, arr
}

// TestContractFullFlow drives every template endpoint the provider uses through the emulator and
// validates each request and response against E2B's published spec.
func TestContractFullFlow(t *testing.T) {
	v := e2bemu.NewContractValidator(t)
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.FailBuild("broken", "pull access denied for registry.example.com/missing")
	c := caller{t: t, url: emu.URL, client: v.Client(), key: apiKey}

	status, _, created, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py", "cpuCount": 2, "memoryMB": 1024})
	if status != http.StatusAccepted {
		t.Fatalf("create = %d, want 202", status)
	}
	tid, bid := created["templateID"].(string), created["buildID"].(string)
	if status, _, _, _ := c.call("GET", "/templates/aliases/py", nil); status != http.StatusOK {
		t.Errorf("alias of a template being built = %d, want 200", status)
	}
	if _, _, _, tags := c.call("GET", "/templates/"+tid+"/tags", nil); len(tags) != 0 {
		t.Errorf("tags before the first build finished = %v, want none", tags)
	}
	start := map[string]any{"fromImage": "python:3.12", "fromImageRegistry": map[string]any{"type": "registry", "username": "u", "password": "p"},
		"steps": []any{map[string]any{"type": "RUN", "args": []string{"pip install numpy"}}}, "startCmd": "run", "readyCmd": "ready"}
	if status, _, _, _ := c.call("POST", "/v2/templates/"+tid+"/builds/"+bid, start); status != http.StatusAccepted {
		t.Fatalf("build start = %d, want 202", status)
	}
	_, _, info, _ := c.call("GET", "/templates/"+tid+"/builds/"+bid+"/status?logsOffset=0", nil)
	if info["status"] != "ready" {
		t.Fatalf("status with a zero build duration = %v, want ready", info["status"])
	}
	_, _, later, _ := c.call("GET", "/templates/"+tid+"/builds/"+bid+"/status?logsOffset=2", nil)
	if got, all := len(later["logEntries"].([]any)), len(info["logEntries"].([]any)); got != all-2 {
		t.Errorf("logsOffset=2 returned %d entries of %d, want all but the first two", got, all)
	}
	if _, _, _, tags := c.call("GET", "/templates/"+tid+"/tags", nil); len(tags) != 1 {
		t.Errorf("tags after a ready build = %v, want one", tags)
	}
	if status, _, _, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py", "tags": []string{"stable"}}); status != http.StatusCreated {
		t.Errorf("assign tags = %d, want 201", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/tags", map[string]any{"name": "py", "tags": []string{"stable"}}); status != http.StatusNoContent {
		t.Errorf("delete tags = %d, want 204", status)
	}
	if status, _, _, list := c.call("GET", "/templates", nil); status != http.StatusOK || len(list) != 1 {
		t.Errorf("list = %d %v, want one template", status, list)
	}
	if status, _, one, _ := c.call("GET", "/templates/"+tid, nil); status != http.StatusOK || len(one["builds"].([]any)) != 1 {
		t.Errorf("get = %d %v, want the template with its build", status, one)
	}
	if status, _, _, _ := c.call("PATCH", "/v2/templates/"+tid, map[string]any{"public": true}); status != http.StatusOK {
		t.Errorf("update = %d, want 200", status)
	}

	// A failing build: error status with a reason and error log entries.
	_, _, broken, _ := c.call("POST", "/v3/templates", map[string]any{"name": "broken"})
	c.call("POST", "/v2/templates/"+broken["templateID"].(string)+"/builds/"+broken["buildID"].(string), map[string]any{"fromImage": "registry.example.com/missing"})
	_, _, failed, _ := c.call("GET", "/templates/"+broken["templateID"].(string)+"/builds/"+broken["buildID"].(string)+"/status", nil)
	if failed["status"] != "error" || !strings.Contains(failed["reason"].(map[string]any)["message"].(string), "pull access denied") {
		t.Errorf("failed build = %v, want error with the injected reason", failed)
	}

	if status, _, _, _ := c.call("DELETE", "/templates/"+tid, nil); status != http.StatusNoContent {
		t.Errorf("delete = %d, want 204", status)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py", nil); status != http.StatusNotFound {
		t.Errorf("alias after delete = %d, want 404", status)
	}
	for _, op := range []string{"POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}",
		"GET /templates/{templateID}/builds/{buildID}/status", "GET /templates/aliases/{alias}", "GET /templates/{templateID}/tags",
		"DELETE /templates/{templateID}", "GET /templates", "GET /templates/{templateID}", "POST /templates/tags", "DELETE /templates/tags"} {
		if v.Seen(op) == 0 {
			t.Errorf("the flow never exercised %s", op)
		}
	}
}

func TestAuth(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	for _, key := range []string{"", "wrong"} {
		status, _, body, _ := caller{t: t, url: emu.URL, client: http.DefaultClient, key: key}.call("GET", "/templates", nil)
		if status != http.StatusUnauthorized || body["code"] != float64(401) || body["message"] == "" {
			t.Errorf("key %q: %d %v, want 401 with the spec's Error JSON", key, status, body)
		}
	}
	for _, r := range emu.Requests() {
		if got := r.Header.Get("X-API-Key"); got != "" && got != "[REDACTED]" {
			t.Errorf("recorded requests must redact the API key, got %q", got)
		}
	}
}

func TestValidationAndNotFound(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := caller{t: t, url: emu.URL, client: http.DefaultClient, key: apiKey}
	for _, tt := range []struct {
		method, path string
		body         any
		want         int
	}{
		{"POST", "/v3/templates", map[string]any{}, 400},
		{"POST", "/v3/templates", map[string]any{"name": "x", "memoryMB": 64}, 400},
		{"POST", "/v2/templates/nope/builds/nope", map[string]any{"fromImage": "python"}, 404},
		{"GET", "/templates/nope/builds/nope/status", nil, 404},
		{"GET", "/templates/aliases/nope", nil, 404},
		{"GET", "/templates/nope/tags", nil, 404},
		{"DELETE", "/templates/nope", nil, 404},
	} {
		if status, _, _, _ := c.call(tt.method, tt.path, tt.body); status != tt.want {
			t.Errorf("%s %s = %d, want %d", tt.method, tt.path, status, tt.want)
		}
	}
	_, _, created, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py"})
	buildPath := "/v2/templates/" + created["templateID"].(string) + "/builds/" + created["buildID"].(string)
	if status, _, _, _ := c.call("POST", buildPath, map[string]any{"fromImage": "a", "fromTemplate": "b"}); status != 400 {
		t.Errorf("two sources = %d, want 400", status)
	}
	if status, _, _, _ := c.call("POST", buildPath, map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "aws"}}); status != 400 {
		t.Errorf("incomplete aws registry = %d, want 400", status)
	}
}

func TestBuildStateMachineFollowsTheClock(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: time.Hour})
	c := caller{t: t, url: emu.URL, client: http.DefaultClient, key: apiKey}
	_, _, created, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py"})
	statusPath := "/templates/" + created["templateID"].(string) + "/builds/" + created["buildID"].(string) + "/status"
	if _, _, info, _ := c.call("GET", statusPath, nil); info["status"] != "waiting" {
		t.Errorf("before start: %v, want waiting", info["status"])
	}
	c.call("POST", "/v2/templates/"+created["templateID"].(string)+"/builds/"+created["buildID"].(string), map[string]any{"fromImage": "python"})
	if _, _, info, _ := c.call("GET", statusPath, nil); info["status"] != "building" {
		t.Errorf("an hour-long build right after start: %v, want building", info["status"])
	}
	if info, _ := emu.Template("py"); len(info.Tags) != 0 {
		t.Errorf("a building template must have no tag yet, got %v", info.Tags)
	}
}

func TestInjectedFaults(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := caller{t: t, url: emu.URL, client: http.DefaultClient, key: apiKey}

	emu.FailNext(2, http.StatusTooManyRequests)
	for range 2 {
		if status, header, _, _ := c.call("GET", "/templates", nil); status != 429 || header.Get("Retry-After") == "" {
			t.Errorf("FailNext(429) = %d with Retry-After %q", status, header.Get("Retry-After"))
		}
	}
	if status, _, _, _ := c.call("GET", "/templates", nil); status != 200 {
		t.Errorf("after the injected failures = %d, want 200", status)
	}

	emu.SetFaults(e2bemu.Faults{Rate: 0.5, Seed: 7})
	failures := 0
	for range 100 {
		if status, _, _, _ := c.call("GET", "/templates", nil); status >= 429 {
			failures++
		}
	}
	if failures < 30 || failures > 70 || emu.InjectedFaults() != failures+2 {
		t.Errorf("rate 0.5 failed %d of 100 requests (%d injected in all)", failures, emu.InjectedFaults())
	}
	emu.SetFaults(e2bemu.Faults{})

	_, _, created, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py"})
	tid, bid := created["templateID"].(string), created["buildID"].(string)
	emu.HangBuild("py")
	emu.DropConnectionsDuringBuild("py", 1)
	c.call("POST", "/v2/templates/"+tid+"/builds/"+bid, map[string]any{"fromImage": "python"})
	req, _ := http.NewRequest("GET", emu.URL+"/templates/"+tid+"/builds/"+bid+"/status", nil)
	req.Header.Set("X-API-Key", apiKey)
	// A fresh connection: Go's transport silently retries an idempotent request once when a
	// reused connection closes, which would hide the drop.
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	if resp, err := fresh.Do(req); err == nil {
		resp.Body.Close()
		t.Error("a dropped poll must fail at the transport level")
	} else if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") {
		t.Errorf("dropped connection error = %v, want an EOF", err)
	}
	if _, _, info, _ := c.call("GET", "/templates/"+tid+"/builds/"+bid+"/status", nil); info["status"] != "building" {
		t.Errorf("a hung build = %v, want building forever", info["status"])
	}
}

func TestInspection(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SeedReadyTemplate("seeded")
	if info, ok := emu.Template("seeded"); !ok || info.BuildStatus != "ready" || len(info.Tags) != 1 {
		t.Errorf("seeded template = %+v, %v; want ready with a tag", info, ok)
	}
	c := caller{t: t, url: emu.URL, client: http.DefaultClient, key: apiKey}
	_, _, created, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py"})
	c.call("POST", "/v2/templates/"+created["templateID"].(string)+"/builds/"+created["buildID"].(string),
		map[string]any{"fromImage": "ecr/x", "fromImageRegistry": map[string]any{"type": "aws", "awsAccessKeyId": "AKID", "awsSecretAccessKey": "s", "awsRegion": "us-east-1"}})
	starts := emu.BuildStarts()
	if len(starts) != 1 || starts[0].RegistryType != "aws" || starts[0].Body.FromImageRegistry.AWSRegion != "us-east-1" || starts[0].Name != "py" {
		t.Errorf("build starts = %+v", starts)
	}
	if n := emu.CountRequests("POST", "/v"); n != 2 {
		t.Errorf("CountRequests(POST, /v) = %d, want 2", n)
	}
	if !emu.DeleteTemplateOutOfBand("py") || emu.DeleteTemplateOutOfBand("py") {
		t.Error("an out-of-band delete removes the template once")
	}
}
