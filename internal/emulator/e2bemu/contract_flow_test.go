package e2bemu_test

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestContractFullFlow drives every template endpoint through the emulator with a plain net/http
// client; the server-side ContractValidator checks each request and response against E2B's spec
// and fails the test on any violation.
func TestContractFullFlow(t *testing.T) {
	emu, v := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)

	first := c.create(map[string]any{"name": "py", "cpuCount": 2, "memoryMB": 1024})
	if status, _, _, _ := c.call("GET", "/templates/aliases/py", nil); status != http.StatusOK {
		t.Errorf("alias of a template being built = %d, want 200", status)
	}
	if _, _, _, tags := c.call("GET", "/templates/"+first.templateID+"/tags", nil); len(tags) != 1 {
		t.Errorf("tags before the first build finished = %v, want default, assigned at the request", tags)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:default", nil); status != http.StatusNotFound {
		t.Errorf("alias:default before a ready build = %d, want 404", status)
	}
	c.start(first, map[string]any{"fromImage": "python:3.12",
		"fromImageRegistry": map[string]any{"type": "registry", "username": "u", "password": "p"},
		"steps":             []any{map[string]any{"type": "RUN", "args": []string{"pip install numpy"}}},
		"startCmd":          "python -m http.server 8000", "readyCmd": "curl -sf localhost:8000", "force": true})
	info := c.status(first)
	if info["status"] != "ready" {
		t.Fatalf("status with a zero build duration = %v, want ready", info)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:default", nil); status != http.StatusOK {
		t.Errorf("alias:default once ready = %d, want 200", status)
	}
	_, _, later, _ := c.call("GET", first.statusPath()+"?logsOffset=2&limit=100&level=info", nil)
	laterEntries, okLater := later["logEntries"].([]any)
	allEntries, okAll := info["logEntries"].([]any)
	if got, all := len(laterEntries), len(allEntries); !okLater || !okAll || got != all-2 {
		t.Errorf("logsOffset=2 returned %d entries of %d, want all but the first two", got, all)
	}

	// A rebuild of the same name keeps the template id, gets a new build id, and tags it.
	second := c.create(map[string]any{"name": "py:v2"})
	if second.templateID != first.templateID || second.buildID == first.buildID {
		t.Errorf("rebuild ids = %+v, want template %s with a new build", second, first.templateID)
	}
	c.start(second, map[string]any{"fromTemplate": "base", "fromImageRegistry": map[string]any{"type": "gcp", "serviceAccountJson": "{}"}})
	c.status(second)
	if _, _, _, tags := c.call("GET", "/templates/py/tags", nil); len(tags) != 2 {
		t.Errorf("tags after two ready builds = %v, want default and v2", tags)
	}
	if status, _, _, _ := c.call("POST", "/templates/tags", map[string]any{"target": "py:v2", "tags": []string{"stable"}}); status != http.StatusCreated {
		t.Errorf("assign tags = %d, want 201", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/tags", map[string]any{"name": "py", "tags": []string{"stable"}}); status != http.StatusNoContent {
		t.Errorf("delete tags = %d, want 204", status)
	}
	if status, _, _, list := c.call("GET", "/templates?teamID=team", nil); status != http.StatusOK || len(list) != 1 {
		t.Errorf("list = %d %v, want one template", status, list)
	}
	status, header, one, _ := c.call("GET", "/templates/"+first.templateID+"?limit=1", nil)
	firstPage, _ := one["builds"].([]any)
	if status != http.StatusOK || len(firstPage) != 1 || header.Get("X-Next-Token") == "" {
		t.Errorf("first page of builds = %d %v (next %q), want one build and a next token", status, one, header.Get("X-Next-Token"))
	}
	_, _, rest, _ := c.call("GET", "/templates/"+first.templateID+"?limit=1&nextToken="+header.Get("X-Next-Token"), nil)
	if secondPage, _ := rest["builds"].([]any); len(secondPage) != 1 {
		t.Errorf("second page of builds = %v, want one build", rest)
	}
	if status, _, _, _ := c.call("PATCH", "/templates/"+first.templateID, map[string]any{"public": false}); status != http.StatusOK {
		t.Errorf("update = %d, want 200", status)
	}
	if status, _, updated, _ := c.call("PATCH", "/v2/templates/py", map[string]any{"public": true}); status != http.StatusOK || updated["names"] == nil {
		t.Errorf("update v2 = %d %v, want 200 with names", status, updated)
	}
	if _, _, alias, _ := c.call("GET", "/templates/aliases/py", nil); alias["public"] != true {
		t.Errorf("alias after making it public = %v", alias)
	}

	// A failing build: error status with a reason and error log entries.
	broken := c.create(map[string]any{"name": "broken", "tags": []string{"t1"}})
	c.start(broken, map[string]any{"fromImage": "registry.test/missing:1", // the catalogue's private registry: AWS keys are no login
		"fromImageRegistry": map[string]any{"type": "aws", "awsAccessKeyId": "AKID", "awsSecretAccessKey": "s", "awsRegion": "us-east-1"}})
	failed := c.status(broken)
	reason, _ := failed["reason"].(map[string]any)
	message, _ := reason["message"].(string)
	reasonEntries, _ := reason["logEntries"].([]any)
	if failed["status"] != "error" || message != "access denied to 'registry.test/missing:1': authentication required or insufficient permissions" || len(reasonEntries) == 0 {
		t.Errorf("failed build = %v, want error with the registry's refusal and its log entries", failed)
	}
	_, _, errorsOnly, _ := c.call("GET", broken.statusPath()+"?level=error", nil)
	if errorEntries, _ := errorsOnly["logEntries"].([]any); len(errorEntries) != 1 {
		t.Errorf("level=error = %v, want the error entry only", errorsOnly["logEntries"])
	}

	if status, _, _, _ := c.call("DELETE", "/templates/"+first.templateID, nil); status != http.StatusNoContent {
		t.Errorf("delete = %d, want 204", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/py", nil); status != http.StatusNotFound {
		t.Errorf("second delete = %d, want 404 (the real API's answer, tolerated by the validator)", status)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/py", nil); status != http.StatusNotFound {
		t.Errorf("alias after delete = %d, want 404", status)
	}

	for _, op := range []string{"POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}",
		"GET /templates/{templateID}/builds/{buildID}/status", "GET /templates/aliases/{alias}", "GET /templates/{templateID}/tags",
		"DELETE /templates/{templateID}", "GET /templates", "GET /templates/{templateID}", "PATCH /templates/{templateID}",
		"PATCH /v2/templates/{templateID}", "POST /templates/tags", "DELETE /templates/tags"} {
		if v.Seen(op) == 0 {
			t.Errorf("the flow never exercised %s", op)
		}
	}
	if got := v.Violations(); len(got) != 0 {
		t.Errorf("%d contract violations", len(got))
	}
}
