package opensandboxemu

import (
	"net/http"
	"testing"
)

// A fault with a status that is no error status is refused with 400; writing it would panic the
// handler (net/http takes 100..999 only).
func TestFaultStatusIsValidated(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	for _, status := range []int{99, 200, 1000} {
		if got, _, _ := call(t, s, "POST", "/_emulator/faults", "", map[string]any{"status": status, "count": 1}); got != http.StatusBadRequest {
			t.Errorf("a fault of status %d: %d, want 400", status, got)
		}
	}
	if got, _, _ := call(t, s, "POST", "/v1/sandboxes", "k", validCreate); got != http.StatusAccepted {
		t.Errorf("after refused faults a create answered %d, want 202", got)
	}
}

// The body of a request without the API key is not kept: anyone on the machine can send one.
func TestBodiesOfUnauthenticatedRequestsAreNotKept(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	call(t, s, "POST", "/v1/sandboxes", "wrong", validCreate)
	call(t, s, "POST", "/v1/sandboxes", "k", validCreate)
	requests := s.Requests()
	if len(requests) != 2 || requests[0].Body != nil || len(requests[1].Body) == 0 {
		t.Errorf("recorded bodies: %q, want none for the refused request and the accepted one's", bodies(requests))
	}
}

func bodies(requests []Request) []string {
	var out []string
	for _, r := range requests {
		out = append(out, string(r.Body))
	}
	return out
}
