package opensandbox

import (
	"context"
	"errors"
	"net/http"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Lookups send ?name= and still filter by name themselves: servers before 2026-07 ignore it.
func TestIsUsableAndResolve(t *testing.T) {
	for _, oldServer := range []bool{false, true} {
		t.Run(map[bool]string{false: "name filter", true: "old server"}[oldServer], func(t *testing.T) {
			testIsUsableAndResolve(t, oldServer)
		})
	}
}

func testIsUsableAndResolve(t *testing.T, oldServer bool) {
	ctx := context.Background()
	// A page size of 2 spreads the snapshots below over several pages.
	h := newHarness(t, opensandboxemu.Options{MaxPageSize: 2, CreatingPolls: -1, IgnoreSnapshotNameFilter: oldServer})

	if usable, err := h.b.IsUsable(ctx, "py"); usable || err != nil {
		t.Fatalf("none: IsUsable = %v, %v", usable, err)
	}
	if _, err := h.b.ResolveSnapshotID(ctx, "py"); !errors.Is(err, ErrSnapshotNotFound) {
		t.Fatalf("none: ResolveSnapshotID error = %v, want ErrSnapshotNotFound", err)
	}

	h.emu.AddSnapshot("py", opensandboxemu.SnapshotFailed)
	h.emu.AddSnapshot("py", opensandboxemu.SnapshotCreating)
	if usable, err := h.b.IsUsable(ctx, "py"); usable || err != nil {
		t.Fatalf("only not-Ready ones: IsUsable = %v, %v", usable, err)
	}

	first := h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady)
	for range 3 {
		h.emu.AddSnapshot("other", opensandboxemu.SnapshotReady)
	}
	if usable, err := h.b.IsUsable(ctx, "py"); !usable || err != nil {
		t.Fatalf("one Ready: IsUsable = %v, %v", usable, err)
	}
	if id, err := h.b.ResolveSnapshotID(ctx, "py"); id != first || err != nil {
		t.Fatalf("one Ready: ResolveSnapshotID = %q, %v, want %s", id, err, first)
	}

	newest := h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady) // a duplicate name, pages later
	h.emu.AddSnapshot("py", opensandboxemu.SnapshotFailed)          // newer, but not Ready
	if id, err := h.b.ResolveSnapshotID(ctx, "py"); id != newest || err != nil {
		t.Errorf("duplicates: ResolveSnapshotID = %q, %v, want the newest Ready %s", id, err, newest)
	}
	if h.count("GET", "/snapshots") < 2 {
		t.Error("lookups must page through the list")
	}
	for _, r := range h.emu.Requests() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/snapshots") && !strings.Contains(r.Query, "name=py") {
			t.Errorf("a lookup without ?name=py: %s", r.Query)
		}
	}
}

func TestDeleteRemovesEverySnapshotWithTheName(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, opensandboxemu.Options{MaxPageSize: 2, CreatingPolls: 2})
	for _, state := range []string{opensandboxemu.SnapshotReady, opensandboxemu.SnapshotFailed, opensandboxemu.SnapshotReady} {
		h.emu.AddSnapshot("py", state)
		h.emu.AddSnapshot("keep", opensandboxemu.SnapshotReady)
	}
	if err := h.b.Delete(ctx, "py"); err != nil {
		t.Fatal(err)
	}
	if left := h.liveSnapshots("py"); len(left) != 0 {
		t.Errorf("snapshots named py left: %+v", left)
	}
	if kept := h.liveSnapshots("keep"); len(kept) != 3 {
		t.Errorf("other templates' snapshots must stay, %d left", len(kept))
	}
	if err := h.b.Delete(ctx, "py"); err != nil {
		t.Errorf("deleting a template that is gone: %v", err)
	}
}

// restore starts a sandbox from snapshot id, as a consumer of the template does.
func (h harness) restore(ctx context.Context, t *testing.T, id string) sandbox {
	var restored sandbox
	if err := h.b.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandboxes", Out: &restored,
		In: map[string]any{"snapshotId": id, "resourceLimits": DefaultResourceLimits}}); err != nil {
		t.Error(err)
	}
	return restored
}

// TestDeleteRefusedWhileARestoredSandboxUsesTheSnapshot: OpenSandbox cannot delete a snapshot a
// restored sandbox uses, and would leave it Deleting. Delete sends it no delete: it deletes the
// other snapshots of the name and fails at once, naming the sandbox; the snapshot stays Ready, and
// once that sandbox is gone, deleting again succeeds.
func TestDeleteRefusedWhileARestoredSandboxUsesTheSnapshot(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := newHarness(t, opensandboxemu.Options{})
	used := h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady)
	h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady)
	restored := h.restore(ctx, t, used)
	err := h.b.Delete(ctx, "py")
	if builders.StageOf(err, "") != builders.StageSnapshot || !strings.Contains(err.Error(), "snapshot py ("+used+") is used by sandbox "+restored.ID) {
		t.Fatalf("Delete = %v, want SNAPSHOT naming %s and the sandbox %s that uses it", err, used, restored.ID)
	}
	if left := h.liveSnapshots("py"); len(left) != 1 || left[0].ID != used || left[0].State != opensandboxemu.SnapshotReady {
		t.Errorf("left: %+v, want only the used snapshot, still Ready", left)
	}
	if err := h.b.api.deleteSandbox(ctx, restored.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Delete(ctx, "py"); err != nil {
		t.Fatalf("Delete once the sandbox is gone: %v", err)
	}
	if left := h.liveSnapshots("py"); len(left) != 0 {
		t.Errorf("left: %+v", left)
	}
}

// TestDeleteOfASnapshotRestoredMeanwhile: a sandbox restored after Delete looked makes the server
// answer 409 SNAPSHOT::DELETE_CONFLICT, which no wait resolves (unlike the 409 of a Creating
// snapshot): Delete fails at once, saying the snapshot is left Deleting.
func TestDeleteOfASnapshotRestoredMeanwhile(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var h harness
	var once sync.Once
	h = newHarness(t, opensandboxemu.Options{OnRequest: func(r *http.Request) {
		if r.Method == http.MethodDelete && strings.Contains(r.URL.Path, "/snapshots/") {
			once.Do(func() { h.restore(ctx, t, path.Base(r.URL.Path)) })
		}
	}})
	used := h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady)
	err := h.b.Delete(ctx, "py")
	if !errors.Is(err, errSnapshotInUse) || builders.StageOf(err, "") != builders.StageSnapshot || !strings.Contains(err.Error(), used) {
		t.Fatalf("Delete = %v, want SNAPSHOT saying a restored sandbox uses %s", err, used)
	}
	if left := h.liveSnapshots("py"); len(left) != 1 || left[0].State != opensandboxemu.SnapshotDeleting {
		t.Errorf("left: %+v, want the snapshot, Deleting", left)
	}
}

func TestDeleteWaitsOutACreatingSnapshot(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{CreatingPolls: 3})
	var created createdRefs
	// A build interrupted while its snapshot was Creating leaves it behind for Delete.
	ctx, cancel := context.WithCancel(context.Background())
	record := created.observer()
	stop := builders.Observer{OnCreated: func(ref builders.TemplateRef) { record.Created(ref); cancel() }}
	builders.Ensure(ctx, h.b, spec("py"), stop)
	if snaps := h.liveSnapshots("py"); len(snaps) != 1 || snaps[0].State != opensandboxemu.SnapshotCreating {
		t.Fatalf("want one Creating snapshot left, got %+v", snaps)
	}
	if err := h.b.Delete(context.Background(), "py"); err != nil {
		t.Fatal(err)
	}
	if left := h.liveSnapshots("py"); len(left) != 0 {
		t.Errorf("left: %+v", left)
	}
	h.assertAllSandboxesDeleted(t)
}
