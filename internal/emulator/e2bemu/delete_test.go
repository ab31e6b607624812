package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestDeleteByAliasOrID: refused with 400 while sandboxes run from the template; a delete releases
// the alias, so building under it again creates a new template; the old id stays reserved.
func TestDeleteByAliasOrID(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	emu.SeedReadyTemplate("py")
	info, _ := emu.Template("py")
	if !emu.SeedSandboxes("py", 1) || emu.SeedSandboxes("nope", 1) {
		t.Fatal("SeedSandboxes reports whether the template exists")
	}
	status, _, body, _ := c.call("DELETE", "/templates/py", nil)
	if status != http.StatusBadRequest || body["message"] != "cannot delete template '"+info.TemplateID+"' because there are running sandboxes using it" {
		t.Errorf("delete while a sandbox runs = %d %v, want 400", status, body)
	}
	emu.SeedSandboxes("py", 0)
	if status, _, _, _ := c.call("DELETE", "/templates/py", nil); status != http.StatusNoContent {
		t.Errorf("delete by alias = %d, want 204", status)
	}
	for _, path := range []string{"/templates/aliases/py", "/templates/aliases/" + info.TemplateID, "/templates/" + info.TemplateID} {
		if status, _, _, _ := c.call("GET", path, nil); status != http.StatusNotFound {
			t.Errorf("GET %s after delete = %d, want 404", path, status)
		}
	}
	again := c.create(map[string]any{"name": "py"})
	if again.templateID == info.TemplateID {
		t.Error("a build under a deleted template's alias reused its id")
	}
	if status, _, _, _ := c.call("POST", "/v3/templates", map[string]any{"name": info.TemplateID}); status != http.StatusConflict {
		t.Errorf("a name equal to the deleted template's id = %d, want 409", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/"+again.templateID, nil); status != http.StatusNoContent {
		t.Errorf("delete by id = %d, want 204", status)
	}
}
