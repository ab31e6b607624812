package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAliasWithTagNeedsAReadyBuild: a failed first build leaves the default tag assigned (listed)
// while alias:default answers 404 with E2B's message; the bare alias only says it exists.
func TestAliasWithTagNeedsAReadyBuild(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	c.start(b, map[string]any{"fromImage": "registry.test/team/app:1"}) // private: no login, no pull
	if got := c.status(b)["status"]; got != "error" {
		t.Fatalf("build = %v, want error", got)
	}
	if _, _, _, tags := c.call("GET", "/templates/py/tags", nil); len(tags) != 1 || tagBuild(tags[0]) != b.buildID {
		t.Errorf("tags of a template whose only build failed = %v, want default on that build", tags)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py", nil); status != http.StatusOK {
		t.Errorf("bare alias = %d, want 200", status)
	}
	status, _, body, _ := c.call("GET", "/templates/aliases/py:default", nil)
	if status != http.StatusNotFound || body["message"] != "tag 'default' does not exist for template 'py'" {
		t.Errorf("alias:default = %d %v, want 404 with E2B's message", status, body)
	}
	if status, _, _, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py", "tags": []string{"stable"}}); status != http.StatusNotFound {
		t.Errorf("tagging a template with no ready build = %d, want 404", status)
	}
}

// TestAssignAndRemoveTags: assign from name:tag; removal deletes every assignment of the tag, and
// never the default tag.
func TestAssignAndRemoveTags(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py:v1"})
	c.start(b, fromPython)
	c.status(b)
	status, _, out, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py:v1", "tags": []string{"prod"}})
	if status != http.StatusCreated || out["buildID"] != b.buildID {
		t.Errorf("assign = %d %v, want 201 on the v1 build", status, out)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:prod", nil); status != http.StatusOK {
		t.Errorf("alias:prod = %d, want 200", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/tags", map[string]any{"name": "py", "tags": []string{"default"}}); status != http.StatusBadRequest {
		t.Errorf("removing default = %d, want 400", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/tags", map[string]any{"name": "py", "tags": []string{"prod"}}); status != http.StatusNoContent {
		t.Errorf("remove = %d, want 204", status)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:prod", nil); status != http.StatusNotFound {
		t.Errorf("alias:prod after removal = %d, want 404", status)
	}
}

func tagBuild(tag any) string {
	m, _ := tag.(map[string]any)
	id, _ := m["buildID"].(string)
	return id
}
