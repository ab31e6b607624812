package contract

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// quiet records violations without failing the test, so a test of the validator can assert on them.
type quiet struct{ testing.TB }

func (quiet) Errorf(string, ...any) {}

// TestValidatorCatchesViolations proves the validator can fail: a request outside the spec's
// bounds, a response missing required fields, an unknown path and an undeclared status are each reported.
func TestValidatorCatchesViolations(t *testing.T) {
	v := NewValidator(quiet{t}, LoadSpec(t, "e2b-openapi.yml"), Options{KeyHeader: "X-API-Key"})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte(`{"templateID": "t"}`)) // buildID, names, tags ... are required
	}))
	defer srv.Close()
	send := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("X-API-Key", "k")
		req.Header.Set("Content-Type", "application/json")
		resp, err := v.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	send("POST", "/v3/templates", `{"name": "x", "memoryMB": 64}`) // both the request and the response are wrong
	send("GET", "/no/such/path", "")
	send("DELETE", "/templates/x", "")
	want := []string{"request", "response 202", "no such operation", "status 202 is not declared"}
	violations := v.Violations()
	if len(violations) != len(want) {
		t.Fatalf("violations = %q, want %d", violations, len(want))
	}
	for i, w := range want {
		if !strings.Contains(violations[i], w) {
			t.Errorf("violation %d = %q, want it to mention %q", i, violations[i], w)
		}
	}
}
