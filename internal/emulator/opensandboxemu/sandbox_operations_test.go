package opensandboxemu

import (
	"net/http"
	"testing"
	"time"
)

// TestSandboxOperations: pause, resume, renew-expiration and the metadata patch do what the
// Docker runtime does, and answer the server's JSON 404 for a sandbox they do not know.
func TestSandboxOperations(t *testing.T) {
	s := NewTestServer(t, Options{})
	status, created, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{
		"image": map[string]any{"uri": "python:3.12"}, "entrypoint": []string{"tail", "-f", "/dev/null"},
		"resourceLimits": map[string]string{}, "timeout": 600, "metadata": map[string]string{"team": "a", "keep": "x"}})
	id := idOf(created)
	if status != http.StatusAccepted || created["expiresAt"] != "2026-01-01T00:10:01Z" {
		t.Fatalf("create = %d %v, want 202 with expiresAt createdAt + 600 s", status, created)
	}
	for _, tt := range []struct {
		method, path string
		body         any
		status       int
		code, state  string
	}{
		{"POST", "/resume", nil, http.StatusConflict, "DOCKER::SANDBOX_NOT_PAUSED", StateRunning},
		{"POST", "/pause", nil, http.StatusAccepted, "", StatePaused},
		{"POST", "/pause", nil, http.StatusConflict, "DOCKER::SANDBOX_NOT_RUNNING", StatePaused},
		{"POST", "/resume", nil, http.StatusAccepted, "", StateRunning},
		{"POST", "/renew-expiration", map[string]string{"expiresAt": "2025-01-01T00:00:00Z"}, http.StatusBadRequest, "DOCKER::INVALID_EXPIRATION", StateRunning},
		{"POST", "/renew-expiration", map[string]string{}, http.StatusUnprocessableEntity, "", StateRunning},
		{"POST", "/renew-expiration", map[string]string{"expiresAt": "2026-01-02T00:00:00Z"}, http.StatusOK, "", StateRunning},
		{"PATCH", "/metadata", map[string]any{"opensandbox.io/x": "1"}, http.StatusBadRequest, "INVALID_METADATA_LABEL", StateRunning},
		{"PATCH", "/metadata", map[string]any{"team": "not a label"}, http.StatusBadRequest, "SANDBOX::INVALID_METADATA_LABEL", StateRunning},
		{"PATCH", "/metadata", map[string]any{"team": "b", "keep": nil, "new": "1"}, http.StatusOK, "", StateRunning},
	} {
		status, body, _ := call(t, s, tt.method, "/v1/sandboxes/"+id+tt.path, "", tt.body)
		if status != tt.status || (tt.code != "" && body["code"] != tt.code) {
			t.Errorf("%s %s %v = %d %v, want %d %s", tt.method, tt.path, tt.body, status, body, tt.status, tt.code)
		}
		if _, got, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil); at(t, got, "status", "state") != tt.state {
			t.Errorf("after %s %s the sandbox is %v, want %s", tt.method, tt.path, got["status"], tt.state)
		}
	}
	_, got, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil)
	if got["expiresAt"] != "2026-01-02T00:00:00Z" || at(t, got, "metadata", "team") != "b" || at(t, got, "metadata", "new") != "1" || at(t, got, "metadata", "keep") != nil {
		t.Errorf("after renew and patch: %v", got)
	}

	_, manual, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{
		"image": map[string]any{"uri": "python:3.12"}, "entrypoint": []string{"tail", "-f", "/dev/null"}, "resourceLimits": map[string]string{}})
	if _, ok := manual["expiresAt"]; ok {
		t.Errorf("a sandbox without timeout has expiresAt: %v", manual)
	}
	if status, body, _ := call(t, s, "POST", "/v1/sandboxes/"+idOf(manual)+"/renew-expiration", "", map[string]string{"expiresAt": time.Now().Add(time.Hour).Format(time.RFC3339)}); status != http.StatusConflict || body["code"] != "DOCKER::INVALID_EXPIRATION" {
		t.Errorf("renewing a sandbox without expiry = %d %v, want 409", status, body)
	}

	for _, tt := range []struct{ method, path string }{
		{"POST", "/pause"}, {"POST", "/resume"}, {"PATCH", "/metadata"},
	} {
		status, body, header := call(t, s, tt.method, "/v1/sandboxes/nope"+tt.path, "", map[string]string{})
		if status != http.StatusNotFound || body["code"] != "DOCKER::SANDBOX_NOT_FOUND" || header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s of an unknown sandbox = %d %v, want the JSON 404", tt.method, tt.path, status, body)
		}
	}
	status, body, _ := call(t, s, "POST", "/v1/sandboxes/nope/renew-expiration", "", map[string]string{"expiresAt": "2027-01-01T00:00:00Z"})
	if status != http.StatusNotFound || body["code"] != "DOCKER::SANDBOX_NOT_FOUND" {
		t.Errorf("renew of an unknown sandbox = %d %v, want the JSON 404", status, body)
	}
	if status, body, _ := call(t, s, "GET", "/v1/no/such/route", "", nil); status != http.StatusNotFound || body["detail"] != "Not Found" {
		t.Errorf("an unknown route = %d %v, want FastAPI's JSON 404", status, body)
	}
}

// TestListFiltersByMetadata: GET /sandboxes?metadata= is parse_qsl of "k=v&k2=v2" (every pair must
// match; a malformed one is a 400), states match case-insensitively, newest first.
func TestListFiltersByMetadata(t *testing.T) {
	s := NewTestServer(t, Options{})
	create := func(md map[string]string) string {
		_, out, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"image": map[string]any{"uri": "python:3.12"},
			"entrypoint": []string{"tail", "-f", "/dev/null"}, "resourceLimits": map[string]string{}, "metadata": md})
		return idOf(out)
	}
	a := create(map[string]string{"role": "builder", "template": "py"})
	b := create(map[string]string{"role": "builder", "template": "py"})
	create(map[string]string{"role": "builder", "template": "other"})
	ids := func(query string) []any {
		_, list, _ := call(t, s, "GET", "/v1/sandboxes?"+query, "", nil)
		var out []any
		items, _ := list["items"].([]any)
		for _, item := range items {
			out = append(out, at(t, item, "id"))
		}
		return out
	}
	if got := ids("metadata=role%3Dbuilder%26template%3Dpy&state=running"); len(got) != 2 || got[0] != b || got[1] != a {
		t.Errorf("filtered list = %v, want [%s %s]", got, b, a)
	}
	if status, body, _ := call(t, s, "GET", "/v1/sandboxes?metadata=broken", "", nil); status != http.StatusBadRequest || body["code"] != "INVALID_METADATA_FORMAT" {
		t.Errorf("malformed metadata filter = %d %v, want 400", status, body)
	}
	if status, body, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"image": map[string]any{"uri": "python:3.12"},
		"entrypoint": []string{"tail"}, "resourceLimits": map[string]string{}, "metadata": map[string]string{"k": "has space"}}); status != http.StatusBadRequest || body["code"] != "SANDBOX::INVALID_METADATA_LABEL" {
		t.Errorf("a metadata value that is no label = %d %v, want 400", status, body)
	}
}

// idOf is the "id" of a decoded JSON object, "" without one.
func idOf(v map[string]any) string {
	id, _ := v["id"].(string)
	return id
}
