package opensandboxemu

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestServedIsTheNewestReadySnapshot: a Creating snapshot serves nothing, the newest Ready one of
// the name serves with what its source sandbox ran, and a deleted one stops serving.
func TestServedIsTheNewestReadySnapshot(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	served := func() (Served, int) {
		t.Helper()
		resp, err := http.Get(s.URL + ControlPath + "served/py")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out Served
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out, resp.StatusCode
	}
	snapshotOf := func(image string, entrypoint []string, command string) string {
		t.Helper()
		_, sb, _ := call(t, s, "POST", "/v1/sandboxes", "k", map[string]any{"image": map[string]any{"uri": image},
			"entrypoint": entrypoint, "resourceLimits": map[string]string{"cpu": "1"}, "timeout": 60})
		id, _ := sb["id"].(string)
		req, _ := http.NewRequest("POST", s.URL+"/execd/"+id+"/command", bytes.NewReader([]byte(`{"command":"`+command+`"}`)))
		req.Header.Set(ExecdTokenHeader, "execd-token-"+id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		_, snap, _ := call(t, s, "POST", "/v1/sandboxes/"+id+"/snapshots", "k", map[string]any{"name": "py"})
		snapID, _ := snap["id"].(string)
		return snapID
	}

	first := snapshotOf("python:3.12", []string{"tail", "-f", "/dev/null"}, "pip install numpy")
	if _, status := served(); status != http.StatusNotFound {
		t.Fatalf("served while the only snapshot is Creating = %d, want 404", status)
	}
	call(t, s, "GET", "/v1/snapshots/"+first, "k", nil) // settles it
	got, status := served()
	if status != http.StatusOK || got.ID != first || got.Image != "python:3.12" || len(got.Commands) != 1 ||
		got.Commands[0].Command != "pip install numpy" || got.Sandbox == nil || !slices.Equal(got.Sandbox.Entrypoint, []string{"tail", "-f", "/dev/null"}) {
		t.Fatalf("served = %d %+v, want the first snapshot and what made it", status, got)
	}

	second := snapshotOf("opensandbox/code-interpreter:v1.1.0", []string{"/opt/code-interpreter/code-interpreter.sh"}, "pip install pandas")
	call(t, s, "GET", "/v1/snapshots/"+second, "k", nil)
	if got, _ := served(); got.ID != second || got.Image != "opensandbox/code-interpreter:v1.1.0" {
		t.Errorf("served after a newer Ready snapshot = %+v, want %s", got, second)
	}
	call(t, s, "DELETE", "/v1/snapshots/"+second, "k", nil)
	if got, _ := served(); got.ID != first {
		t.Errorf("served after deleting the newer snapshot = %+v, want %s again", got, first)
	}
}
