package opensandboxemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func call(t *testing.T, s *Server, method, path, key string, body any) (int, map[string]any, http.Header) {
	t.Helper()
	var reader io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		reader = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+path, reader)
	if key != "" {
		req.Header.Set("OPEN-SANDBOX-API-KEY", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, resp.Header
}

// at walks decoded JSON through nested objects by key; the test fails when a level is not an object.
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%v is not a JSON object (looking up %q)", v, k)
		}
		v = m[k]
	}
	return v
}

var validCreate = map[string]any{
	"image":      map[string]any{"uri": "python:3.12", "auth": map[string]any{"username": "u", "password": "p"}},
	"entrypoint": []string{"tail", "-f", "/dev/null"}, "resourceLimits": map[string]string{"cpu": "1"}, "timeout": 60,
}

func TestAuthErrorsUseTheServerCodes(t *testing.T) {
	s := NewTestServer(t, Options{APIKey: "k"})
	if status, body, _ := call(t, s, "GET", "/v1/snapshots", "", nil); status != 401 || body["code"] != "MISSING_API_KEY" {
		t.Errorf("no key: %d %v", status, body)
	}
	if status, body, _ := call(t, s, "GET", "/snapshots", "bad", nil); status != 401 || body["code"] != "INVALID_API_KEY" {
		t.Errorf("bad key at the root mount: %d %v", status, body)
	}
}

func TestCreateAnswersRunningLikeTheRealRuntimes(t *testing.T) {
	s := NewTestServer(t, Options{})
	status, created, header := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	id, _ := created["id"].(string)
	if status != 202 || header.Get("Location") != "/v1/sandboxes/"+id || at(t, created, "status", "state") != StateRunning {
		t.Fatalf("create: %d %v %v", status, created, header)
	}
	_, got, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil)
	if at(t, got, "status", "state") != StateRunning || at(t, got, "image", "auth") != nil {
		t.Errorf("get: %v (registry credentials must never be returned)", got)
	}
	if sb := s.Sandboxes()[0]; sb.Auth == nil || *sb.Auth != (ImageAuth{Username: "u", Password: "p"}) {
		t.Errorf("recorded auth = %+v", sb.Auth)
	}
	if status, _, _ := call(t, s, "DELETE", "/v1/sandboxes/"+id, "", nil); status != 204 {
		t.Errorf("delete: %d", status)
	}
	if status, body, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil); status != 404 || body["code"] != "DOCKER::SANDBOX_NOT_FOUND" {
		t.Errorf("after delete: %d %v", status, body)
	}
	if sb := s.Sandboxes()[0]; !sb.Deleted {
		t.Error("Sandboxes must keep deleted ones, marked Deleted")
	}
}

func TestPendingIsOptIn(t *testing.T) {
	s := NewTestServer(t, Options{PendingPolls: 2})
	_, created, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	id, _ := created["id"].(string)
	if at(t, created, "status", "state") != StatePending {
		t.Fatalf("create: %v", created)
	}
	for i, want := range []string{StatePending, StatePending, StateRunning} {
		_, got, _ := call(t, s, "GET", "/v1/sandboxes/"+id, "", nil)
		if state := at(t, got, "status", "state"); state != want {
			t.Errorf("poll %d: state %v, want %s", i+1, state, want)
		}
	}
}

func TestTimeoutAboveTheServerCapIs400(t *testing.T) {
	s := NewTestServer(t, Options{MaxSandboxTimeoutSeconds: 3600})
	body := map[string]any{"image": map[string]any{"uri": "python:3.12"}, "entrypoint": []string{"tail", "-f", "/dev/null"},
		"resourceLimits": map[string]string{"cpu": "1"}, "timeout": 3601}
	status, got, _ := call(t, s, "POST", "/v1/sandboxes", "", body)
	if msg, _ := got["message"].(string); status != 400 || got["code"] != "SANDBOX::INVALID_PARAMETER" || !strings.Contains(msg, "exceeds configured maximum of 3600s") {
		t.Errorf("above the cap: %d %v", status, got)
	}
	body["timeout"] = 3600
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes", "", body); status != 202 {
		t.Errorf("at the cap: %d", status)
	}
	if n := len(s.Sandboxes()); n != 1 {
		t.Errorf("%d sandboxes, want only the one within the cap", n)
	}
}

func TestBodyValidationIsFastAPIs422(t *testing.T) {
	s := NewTestServer(t, Options{})
	bad := map[string]any{"image": map[string]any{"uri": "x", "auth": map[string]any{"username": "u", "password": "p"}, "tag": "1"}, "timeout": 10}
	status, body, _ := call(t, s, "POST", "/v1/sandboxes", "", bad)
	detail, _ := body["detail"].([]any)
	if status != 422 || len(detail) < 4 {
		t.Fatalf("422 with every issue expected, got %d %v", status, body)
	}
	var locs []string
	for _, d := range detail {
		b, _ := json.Marshal(at(t, d, "loc"))
		locs = append(locs, string(b))
	}
	for _, want := range []string{`["body","image","tag"]`, `["body","entrypoint"]`, `["body","resourceLimits"]`, `["body","timeout"]`} {
		if !strings.Contains(strings.Join(locs, " "), want) {
			t.Errorf("locs %v lack %s", locs, want)
		}
	}
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"snapshotId": "s", "image": map[string]any{"uri": "x"}}); status != 422 {
		t.Errorf("image and snapshotId together: %d", status)
	}
}

func TestSnapshotsPaginateAndSettle(t *testing.T) {
	s := NewTestServer(t, Options{MaxPageSize: 2, FailSnapshots: true})
	for range 3 {
		s.AddSnapshot("a", SnapshotReady)
	}
	_, page1, _ := call(t, s, "GET", "/v1/snapshots?pageSize=50", "", nil)
	pg, _ := page1["pagination"].(map[string]any)
	items, _ := page1["items"].([]any)
	if len(items) != 2 || pg["pageSize"] != float64(2) || pg["hasNextPage"] != true || pg["totalPages"] != float64(2) {
		t.Errorf("page 1 = %v", page1)
	}
	_, page2, _ := call(t, s, "GET", "/v1/snapshots?page=2&pageSize=2", "", nil)
	items, _ = page2["items"].([]any)
	if len(items) != 1 || at(t, page2, "pagination", "hasNextPage") != false {
		t.Errorf("page 2 = %v", page2)
	}

	_, created, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	id, _ := created["id"].(string)
	status, snap, _ := call(t, s, "POST", "/v1/sandboxes/"+id+"/snapshots", "", map[string]any{"name": "b"})
	if status != 202 || at(t, snap, "status", "state") != SnapshotCreating {
		t.Fatalf("snapshot create: %d %v", status, snap)
	}
	snapID, _ := snap["id"].(string)
	if status, body, _ := call(t, s, "DELETE", "/v1/snapshots/"+snapID, "", nil); status != 409 || body["code"] != "SNAPSHOT::INVALID_STATE" {
		t.Errorf("deleting a Creating snapshot: %d %v", status, body)
	}
	if _, got, _ := call(t, s, "GET", "/v1/snapshots/"+snapID, "", nil); at(t, got, "status", "state") != SnapshotFailed {
		t.Errorf("FailSnapshots: %v", got)
	}
	if status, _, _ := call(t, s, "POST", "/v1/sandboxes/"+id+"/snapshots", "", map[string]any{"name": ""}); status != 422 {
		t.Errorf("empty name: %d", status)
	}
}

func TestFaultsAndImagePullFailures(t *testing.T) {
	s := NewTestServer(t, Options{UnpullableImages: []string{"python:3.12"}})
	s.InjectFault(Fault{Method: "GET", PathPrefix: "/snapshots", Status: 503, Count: 1})
	if status, body, _ := call(t, s, "GET", "/v1/snapshots", "", nil); status != 503 || body["code"] == nil {
		t.Errorf("fault: %d %v", status, body)
	}
	if status, _, _ := call(t, s, "GET", "/v1/snapshots", "", nil); status != 200 {
		t.Errorf("a fault is consumed: %d", status)
	}
	// The Docker runtime pulls before it answers the create.
	if status, body, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate); status != 500 || body["code"] != "DOCKER::SANDBOX_IMAGE_PULL_FAILED" {
		t.Errorf("unpullable image: %d %v", status, body)
	}
	if len(s.Sandboxes()) != 0 {
		t.Error("a failed pull must leave no sandbox")
	}

	pending := NewTestServer(t, Options{UnpullableImages: []string{"python:3.12"}, PendingPolls: 1})
	_, created, _ := call(t, pending, "POST", "/v1/sandboxes", "", validCreate)
	id, _ := created["id"].(string)
	call(t, pending, "GET", "/v1/sandboxes/"+id, "", nil)
	_, got, _ := call(t, pending, "GET", "/v1/sandboxes/"+id, "", nil)
	if st, _ := got["status"].(map[string]any); st["state"] != StateFailed || st["reason"] != "ErrImagePull" {
		t.Errorf("unpullable image on a pending runtime: %v", st)
	}
}
