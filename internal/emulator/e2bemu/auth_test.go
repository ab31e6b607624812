package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAuthRejectsMissingAndWrongKeys: every endpoint answers 401 with the spec's Error JSON, and
// nothing behind a rejected request happens.
func TestAuthRejectsMissingAndWrongKeys(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	endpoints := []struct {
		method, path string
		body         any
	}{
		{"POST", "/v3/templates", map[string]any{"name": "py"}},
		{"POST", "/v2/templates/t/builds/b", fromPython},
		{"GET", "/templates/t/builds/b/status", nil},
		{"GET", "/templates", nil},
		{"GET", "/templates/t", nil},
		{"PATCH", "/templates/t", map[string]any{}},
		{"DELETE", "/templates/t", nil},
		{"GET", "/templates/aliases/py", nil},
		{"GET", "/templates/t/tags", nil},
		{"POST", "/templates/tags", map[string]any{"target": "py", "tags": []string{"x"}}},
		{"DELETE", "/templates/tags", map[string]any{"name": "py", "tags": []string{"x"}}},
	}
	for _, key := range []string{"", "wrong"} {
		c := newCaller(t, emu)
		c.key = key
		for _, e := range endpoints {
			status, header, body, _ := c.call(e.method, e.path, e.body)
			if status != http.StatusUnauthorized || body["code"] != float64(401) || body["message"] == "" ||
				header.Get("Content-Type") != "application/json" {
				t.Errorf("key %q: %s %s = %d %v, want 401 with the spec's Error JSON", key, e.method, e.path, status, body)
			}
		}
	}
	if _, ok := emu.Template("py"); ok {
		t.Error("a rejected create must not create the template")
	}
}

func TestAuthAcceptsTheConfiguredKey(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	if status, _, _, _ := newCaller(t, emu).call("GET", "/templates", nil); status != http.StatusOK {
		t.Errorf("right key = %d, want 200", status)
	}
}

// TestAuthWithoutConfiguredKey: an emulator with no key accepts any key, but still requires one.
func TestAuthWithoutConfiguredKey(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{})
	c := newCaller(t, emu)
	c.key = "anything"
	if status, _, _, _ := c.call("GET", "/templates", nil); status != http.StatusOK {
		t.Errorf("any key = %d, want 200", status)
	}
	c.key = ""
	if status, _, _, _ := c.call("GET", "/templates", nil); status != http.StatusUnauthorized {
		t.Errorf("no key = %d, want 401", status)
	}
}
