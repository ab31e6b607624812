package e2bemu_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const apiKey = "e2b_emulator_test_key"

// caller sends JSON requests and decodes the answer as an object or an array.
type caller struct {
	t      *testing.T
	url    string
	client *http.Client
	key    string
}

func newCaller(t *testing.T, emu *e2bemu.Server) caller {
	return caller{t: t, url: emu.URL, client: http.DefaultClient, key: apiKey}
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
	defer func() { _ = resp.Body.Close() }()
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

// build is one created template build, with the paths to drive it.
type build struct {
	templateID, buildID string
}

func (b build) startPath() string { return "/v2/templates/" + b.templateID + "/builds/" + b.buildID }
func (b build) statusPath() string {
	return "/templates/" + b.templateID + "/builds/" + b.buildID + "/status"
}

// create posts /v3/templates and returns the ids, failing the test unless it is accepted.
func (c caller) create(body map[string]any) build {
	c.t.Helper()
	status, _, out, _ := c.call("POST", "/v3/templates", body)
	if status != http.StatusAccepted {
		c.t.Fatalf("create %v = %d %v, want 202", body, status, out)
	}
	templateID, okTemplate := out["templateID"].(string)
	buildID, okBuild := out["buildID"].(string)
	if !okTemplate || !okBuild {
		c.t.Fatalf("create %v = %v, want string templateID and buildID", body, out)
	}
	return build{templateID: templateID, buildID: buildID}
}

func (c caller) start(b build, body map[string]any) {
	c.t.Helper()
	if status, _, out, _ := c.call("POST", b.startPath(), body); status != http.StatusAccepted {
		c.t.Fatalf("start %v = %d %v, want 202", body, status, out)
	}
}

func (c caller) status(b build) map[string]any {
	c.t.Helper()
	status, _, out, _ := c.call("GET", b.statusPath(), nil)
	if status != http.StatusOK {
		c.t.Fatalf("status = %d %v, want 200", status, out)
	}
	return out
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var fromPython = map[string]any{"fromImage": "python:3.12"}

func itoa(i int) string { return strconv.Itoa(i) }
