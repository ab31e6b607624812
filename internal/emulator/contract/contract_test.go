package contract

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestValidatorCatchesViolations proves the validator can fail: a request outside the spec's
// bounds, a response missing required fields and an unknown path are each reported.
func TestValidatorCatchesViolations(t *testing.T) {
	v := NewValidator(t, LoadSpec(t, "e2b-openapi.yml"))
	var violations []string
	v.report = func(format string, args ...any) { violations = append(violations, fmt.Sprintf(format, args...)) }
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
		resp.Body.Close()
	}
	send("POST", "/v3/templates", `{"name": "x", "memoryMB": 64}`)
	send("POST", "/v3/templates", `{"name": "x"}`)
	send("GET", "/no/such/path", "")
	want := []string{"request", "response 202", "no such operation"}
	if len(violations) != len(want) {
		t.Fatalf("violations = %q, want %d", violations, len(want))
	}
	for i, w := range want {
		if !strings.Contains(violations[i], w) {
			t.Errorf("violation %d = %q, want it to mention %q", i, violations[i], w)
		}
	}
}
