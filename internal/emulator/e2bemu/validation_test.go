package e2bemu_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestBadRequestsAnswer400 covers the spec's constraints: each bad body or query gets a 400
// with the Error JSON and changes nothing.
func TestBadRequestsAnswer400(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	for _, tt := range []struct {
		name, method, path string
		body               any
	}{
		{"no name", "POST", "/v3/templates", map[string]any{}},
		{"name too long", "POST", "/v3/templates", map[string]any{"name": strings.Repeat("n", 129)}},
		{"memory below 128", "POST", "/v3/templates", map[string]any{"name": "x", "memoryMB": 64}},
		{"cpu below 1", "POST", "/v3/templates", map[string]any{"name": "x", "cpuCount": 0}},
		{"cpu of the wrong type", "POST", "/v3/templates", map[string]any{"name": "x", "cpuCount": "2"}},
		{"not JSON", "POST", "/v3/templates", "{"},
		{"incomplete aws registry", "POST", b.startPath(), map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "aws"}}},
		{"incomplete general registry", "POST", b.startPath(), map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "registry", "username": "u"}}},
		{"empty gcp registry", "POST", b.startPath(), map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "gcp"}}},
		{"unknown registry type", "POST", b.startPath(), map[string]any{"fromImage": "a", "fromImageRegistry": map[string]any{"type": "azure"}}},
		{"step without type", "POST", b.startPath(), map[string]any{"fromImage": "a", "steps": []any{map[string]any{"args": []string{"x"}}}}},
		{"build id not a UUID", "POST", "/v2/templates/" + b.templateID + "/builds/nope", fromPython},
		{"status of an unknown build", "GET", "/templates/nope/builds/" + b.buildID + "/status", nil}, // 400, not 404: template_build_status.go
		{"status with a build id not a UUID", "GET", "/templates/" + b.templateID + "/builds/nope/status", nil},
		{"negative logsOffset", "GET", b.statusPath() + "?logsOffset=-1", nil},
		{"limit above 100", "GET", b.statusPath() + "?limit=101", nil},
		{"unknown level", "GET", b.statusPath() + "?level=trace", nil},
		{"builds limit 0", "GET", "/templates/py?limit=0", nil},
		{"assign without tags", "POST", "/templates/tags", map[string]any{"target": "py"}},
		{"delete tags without name", "DELETE", "/templates/tags", map[string]any{"tags": []string{"x"}}},
	} {
		status, _, body, _ := c.call(tt.method, tt.path, tt.body)
		if status != http.StatusBadRequest || body["code"] != float64(400) || body["message"] == "" {
			t.Errorf("%s: %d %v, want 400 with the Error JSON", tt.name, status, body)
		}
	}
	if got := c.status(b)["status"]; got != "waiting" {
		t.Errorf("after rejected starts the build is %v, want still waiting", got)
	}
	if len(emu.BuildStarts()) != 0 {
		t.Errorf("rejected starts were recorded as build starts: %+v", emu.BuildStarts())
	}
}

// TestUnknownThingsAnswer404 covers unknown templates, builds and routes.
func TestUnknownThingsAnswer404(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	other := c.create(map[string]any{"name": "other"})
	for _, tt := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/v2/templates/nope/builds/" + other.buildID, fromPython},
		{"POST", "/v2/templates/" + other.templateID + "/builds/00000000-0000-4000-a000-000000000000", fromPython},
		{"POST", "/v2/templates/other/builds/" + other.buildID, fromPython}, // by id only, not alias
		{"GET", "/templates/nope", nil},
		{"PATCH", "/templates/nope", map[string]any{"public": true}},
		{"PATCH", "/v2/templates/nope", map[string]any{"public": true}},
		{"DELETE", "/templates/nope", nil},
		{"GET", "/templates/aliases/nope", nil},
		{"GET", "/templates/other", nil},                 // by id only, not alias (template_get.go)
		{"GET", "/templates/aliases/other:default", nil}, // no ready build carries default
		{"GET", "/templates/nope/tags", nil},
		{"POST", "/templates/tags", map[string]any{"target": "nope", "tags": []string{"x"}}},
		{"POST", "/templates/tags", map[string]any{"target": "other", "tags": []string{"x"}}}, // no ready build to tag
		{"DELETE", "/templates/tags", map[string]any{"name": "nope", "tags": []string{"x"}}},
		{"GET", "/no/such/route", nil},
	} {
		status, _, body, _ := c.call(tt.method, tt.path, tt.body)
		if status != http.StatusNotFound || body["code"] != float64(404) || body["message"] == "" {
			t.Errorf("%s %s = %d %v, want 404 with the Error JSON", tt.method, tt.path, status, body)
		}
	}
}

// TestBuildStartsOnce: a second start of the same build is refused.
func TestBuildStartsOnce(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	c.start(b, fromPython)
	if status, _, _, _ := c.call("POST", b.startPath(), fromPython); status != http.StatusBadRequest {
		t.Errorf("second start = %d, want 400", status)
	}
	if n := len(emu.BuildStarts()); n != 1 {
		t.Errorf("build starts = %d, want 1", n)
	}
}
