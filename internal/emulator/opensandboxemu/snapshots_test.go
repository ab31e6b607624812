package opensandboxemu

import (
	"net/http"
	"testing"
)

func TestSnapshotNameFilterAndOldServers(t *testing.T) {
	s := NewTestServer(t, Options{})
	s.AddSnapshot("py", SnapshotReady)
	s.AddSnapshot("py-2", SnapshotReady)
	s.AddSnapshot("", SnapshotReady)
	names := func() []any {
		_, list, _ := call(t, s, "GET", "/v1/snapshots?name=py", "", nil)
		var out []any
		items, _ := list["items"].([]any)
		for _, item := range items {
			out = append(out, at(t, item, "name"))
		}
		return out
	}
	if got := names(); len(got) != 1 || got[0] != "py" {
		t.Errorf("?name=py: %v, want only the exact name", got)
	}
	s.Apply(Settings{IgnoreSnapshotNameFilter: ptr(true)})
	if got := names(); len(got) != 3 {
		t.Errorf("an old server ignores ?name=: %v", got)
	}
}

func ptr[T any](v T) *T { return &v }

// TestDeletingASnapshotInUse: snapshot_service.py marks a snapshot Deleting before it removes its
// image, and Docker refuses while a sandbox restored from it exists (snapshot_runtime.py): 409
// SNAPSHOT::DELETE_CONFLICT, the snapshot left Deleting and no longer restorable. Once that sandbox
// is deleted, deleting the snapshot again succeeds. A Creating snapshot is the other 409.
func TestDeletingASnapshotInUse(t *testing.T) {
	s := NewTestServer(t, Options{CreatingPolls: -1})
	ready := s.AddSnapshot("py", SnapshotReady)
	_, restored, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"snapshotId": ready, "resourceLimits": map[string]string{}})
	status, body, _ := call(t, s, "DELETE", "/v1/snapshots/"+ready, "", nil)
	if status != http.StatusConflict || body["code"] != "SNAPSHOT::DELETE_CONFLICT" {
		t.Fatalf("delete while restored = %d %v, want 409 SNAPSHOT::DELETE_CONFLICT", status, body)
	}
	if _, got, _ := call(t, s, "GET", "/v1/snapshots/"+ready, "", nil); at(t, got, "status", "state") != SnapshotDeleting {
		t.Errorf("after the conflict the snapshot is %v, want Deleting", got)
	}
	if status, body, _ := call(t, s, "POST", "/v1/sandboxes", "", map[string]any{"snapshotId": ready, "resourceLimits": map[string]string{}}); status != http.StatusConflict || body["code"] != "SNAPSHOT::NOT_READY" {
		t.Errorf("restoring a Deleting snapshot = %d %v, want 409 SNAPSHOT::NOT_READY", status, body)
	}
	call(t, s, "DELETE", "/v1/sandboxes/"+idOf(restored), "", nil)
	if status, _, _ := call(t, s, "DELETE", "/v1/snapshots/"+ready, "", nil); status != http.StatusNoContent {
		t.Errorf("delete once the sandbox is gone = %d, want 204", status)
	}

	_, source, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	_, creating, _ := call(t, s, "POST", "/v1/sandboxes/"+idOf(source)+"/snapshots", "", map[string]any{"name": "py"})
	if status, body, _ := call(t, s, "DELETE", "/v1/snapshots/"+idOf(creating), "", nil); status != http.StatusConflict || body["code"] != "SNAPSHOT::INVALID_STATE" {
		t.Errorf("delete while Creating = %d %v, want 409 SNAPSHOT::INVALID_STATE", status, body)
	}
}
