package e2bemu_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Statuses that are no error statuses are refused with 400; writing 99 or 1000 would panic the
// handler (net/http takes 100..999 only).
func TestFaultStatusesAreValidated(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	for _, body := range []string{`{"rate":1,"status":[1000]}`, `{"rate":1,"status":[500,99]}`, `{"rate":1,"status":[200]}`} {
		resp, err := http.Post(emu.URL+"/_emulator/faults", "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("faults %s: %d, want 400", body, resp.StatusCode)
		}
	}
	if status, _, _, _ := newCaller(t, emu).call("GET", "/templates", nil); status != http.StatusOK {
		t.Errorf("after refused faults GET /templates answered %d, want 200", status)
	}
}

// The body of a request without the API key is not kept: anyone on the machine can send one.
func TestBodiesOfUnauthenticatedRequestsAreNotKept(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	refused := newCaller(t, emu)
	refused.key = "wrong"
	refused.call("POST", "/v3/templates", map[string]any{"name": "py"})
	newCaller(t, emu).call("POST", "/v3/templates", map[string]any{"name": "py"})
	requests := emu.Requests()
	if len(requests) != 2 || requests[0].Body != nil || len(requests[1].Body) == 0 {
		t.Errorf("recorded %d requests, bodies %q and %q; want none for the refused one", len(requests), requests[0].Body, requests[len(requests)-1].Body)
	}
}
