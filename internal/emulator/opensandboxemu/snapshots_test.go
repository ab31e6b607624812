package opensandboxemu

import "testing"

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
