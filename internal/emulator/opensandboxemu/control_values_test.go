package opensandboxemu

import (
	"net/http"
	"strings"
	"testing"
)

// Negative or nonsense control values are refused with a 400 that names the field and says what
// it must be; nothing of the control is applied.
func TestControlsRefuseNonsenseValuesNamingTheField(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	for _, tt := range []struct {
		method, path string
		body         map[string]any
		want         string
	}{
		{"POST", "faults", map[string]any{"status": 503, "count": -1}, "count must be >= 1, not -1"},
		{"POST", "faults", map[string]any{"status": 503, "count": 1, "method": "FETCH"}, `method must be empty (any) or one of GET, POST, PUT, PATCH, DELETE, not "FETCH"`},
		{"POST", "faults", map[string]any{"status": 503, "count": 1, "pathPrefix": "sandboxes"}, `pathPrefix must be empty (any) or start with /, not "sandboxes"`},
		{"POST", "faults", map[string]any{"status": 429, "count": 1, "retryAfter": "-5"}, `retryAfter must be a number of seconds >= 0, not "-5"`},
		{"POST", "faults", map[string]any{"status": 429, "count": 1, "retryAfter": "soon"}, `retryAfter must be a number of seconds`},
		{"POST", "snapshots", map[string]any{"name": "py", "state": "Exploded"}, `state must be one of Creating, Ready, Failed, Deleting, not "Exploded"`},
		{"PUT", "settings", map[string]any{"maxSandboxTimeoutSeconds": -60}, "maxSandboxTimeoutSeconds must be >= 0 (0: no cap), not -60"},
	} {
		status, body, _ := call(t, s, tt.method, "/_emulator/"+tt.path, "", tt.body)
		if message, _ := body["message"].(string); status != http.StatusBadRequest || !strings.Contains(message, tt.want) {
			t.Errorf("%s %v = %d %v, want 400 with %q", tt.path, tt.body, status, body, tt.want)
		}
	}
	if len(s.Snapshots()) != 0 {
		t.Errorf("a refused seed made %d snapshots", len(s.Snapshots()))
	}
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes", "k", validCreate); status != http.StatusAccepted {
		t.Errorf("after the refused faults a create answered %d, want 202", status)
	}
	if status, body, _ := call(t, s, "PUT", "/_emulator/settings", "", map[string]any{}); status != http.StatusOK || body["maxSandboxTimeoutSeconds"] == float64(-60) {
		t.Errorf("settings after the refused one = %d %v", status, body)
	}
}
