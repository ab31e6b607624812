package e2bemu

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// quiet records violations without failing the test, so the validator itself can be tested.
type quiet struct{ testing.TB }

func (quiet) Errorf(string, ...any) {}

func send(t *testing.T, client *http.Client, method, url, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("X-API-Key", "k")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	_ = resp.Body.Close()
	return resp
}

// TestContractValidatorReportsViolations proves the validator can fail: a request outside the
// spec's bounds, a response missing required fields, an unknown path and an undeclared status.
func TestContractValidatorReportsViolations(t *testing.T) {
	v := NewContractValidator(quiet{t})
	status := http.StatusAccepted
	srv := httptest.NewServer(v.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(`{"templateID": "t"}`)) // buildID, names, tags ... are required
	})))
	defer srv.Close()

	send(t, http.DefaultClient, "POST", srv.URL+"/v3/templates", `{"name": "x", "memoryMB": 64}`)
	send(t, http.DefaultClient, "GET", srv.URL+"/no/such/path", "")
	status = http.StatusTeapot
	send(t, http.DefaultClient, "DELETE", srv.URL+"/templates/x", "")
	want := []string{"request", "response 202", "no such operation", "status 418 is not declared"}
	got := v.Violations()
	if len(got) != len(want) {
		t.Fatalf("violations = %q, want %d", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("violation %d = %q, want it to mention %q", i, got[i], w)
		}
	}
}

// TestContractValidatorToleratesRealServerStatuses: a 404 the spec omits, and injected faults,
// pass when their body is the Error JSON; the transport and the handler wrapper agree.
func TestContractValidatorToleratesRealServerStatuses(t *testing.T) {
	v := NewContractValidator(quiet{t})
	emu := New(Options{APIKey: "k"})
	srv := httptest.NewServer(v.Wrap(emu))
	defer srv.Close()
	client := v.Client() // every exchange is now validated twice: by the client and by the server

	if resp := send(t, client, "DELETE", srv.URL+"/templates/nope", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("delete of an unknown template = %d, want 404", resp.StatusCode)
	}
	emu.FailNext(1, http.StatusServiceUnavailable)
	if resp := send(t, client, "DELETE", srv.URL+"/templates/nope", ""); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("injected fault = %d, want 503", resp.StatusCode)
	}
	if got := v.Violations(); len(got) != 0 {
		t.Errorf("violations = %q, want none", got)
	}
	if n := v.Seen("DELETE /templates/{templateID}"); n != 4 {
		t.Errorf("Seen = %d, want 4 (2 requests, each checked by transport and wrapper)", n)
	}
}
