package opensandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// ErrSnapshotNotFound is returned (wrapped) by ResolveSnapshotID when no Ready snapshot has the name.
var ErrSnapshotNotFound = errors.New("no Ready snapshot with that name")

// IsUsable tells whether a Ready snapshot named templateID exists.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	ready, err := b.api.snapshotsNamed(ctx, templateID, snapshotReady)
	if err != nil {
		return false, builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("looking up snapshot %s: %w", templateID, err))
	}
	return len(ready) > 0, nil
}

// ResolveSnapshotID returns the id to start sandboxes from (CreateSandboxRequest.snapshotId) for
// a template reference: the newest Ready snapshot with that name.
func (b *Builder) ResolveSnapshotID(ctx context.Context, name string) (string, error) {
	ready, err := b.api.snapshotsNamed(ctx, name, snapshotReady)
	if err != nil {
		return "", builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("resolving snapshot %s: %w", name, err))
	}
	if len(ready) == 0 {
		return "", builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("snapshot %s: %w", name, ErrSnapshotNotFound))
	}
	return slices.MaxFunc(ready, newer).ID, nil
}

// Serving returns the snapshot sandboxes of the template start from: the newest Ready one of the
// name, as consumers resolve it (ResolveSnapshotID); "" when there is none. One request, as IsUsable.
// There are no candidates here: snapshots have no tags (the spec's are refused at plan time).
func (b *Builder) Serving(ctx context.Context, templateID string, _ bool, _ string) (string, error) {
	id, err := b.ResolveSnapshotID(ctx, templateID)
	if errors.Is(err, ErrSnapshotNotFound) {
		return "", nil
	}
	return id, err
}

// newer orders snapshots by createdAt, then id, so duplicates resolve the same way every time.
func newer(a, b snapshot) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// Delete removes every snapshot named templateID. Gone already is fine; one still Creating (the
// server refuses with 409 SNAPSHOT::INVALID_STATE) is polled and retried until it settles or ctx
// ends. One a sandbox restored from it still uses cannot go: Docker refuses to remove an image a
// container uses (services/docker/snapshot_runtime.py), and the server would answer 409
// SNAPSHOT::DELETE_CONFLICT after marking the snapshot Deleting (services/snapshot_service.py),
// for good, since only a restart retries it. So such a snapshot is not sent a delete: Delete deletes
// the others and fails at once, naming the sandboxes, and the template stays usable until a destroy
// after they are gone. A sandbox restored in between still gets the server's 409, reported as such.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	named, err := b.api.snapshotsNamed(ctx, templateID)
	if err != nil {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing snapshots named %s: %w", templateID, err))
	}
	if len(named) == 0 {
		return nil
	}
	restored, err := b.restoredSandboxes(ctx)
	if err != nil {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing the sandboxes restored from snapshots named %s: %w", templateID, err))
	}
	var inUse []error
	for _, s := range named {
		if users := restored[s.ID]; len(users) > 0 {
			inUse = append(inUse, fmt.Errorf("snapshot %s (%s) is used by sandbox %s, restored from it: OpenSandbox cannot delete a "+
				"snapshot while a sandbox restored from it exists; delete those sandboxes, then destroy again", templateID, s.ID, strings.Join(users, ", ")))
			continue
		}
		err := b.deleteSettledSnapshot(ctx, s.ID)
		switch {
		case errors.Is(err, errSnapshotInUse):
			inUse = append(inUse, fmt.Errorf("snapshot %s (%s): %w", templateID, s.ID, err))
		case err != nil:
			return builders.AtStage(builders.StageSnapshot, fmt.Errorf("deleting snapshot %s (%s): %w", templateID, s.ID, err))
		}
	}
	return builders.AtStage(builders.StageSnapshot, errors.Join(inUse...))
}

// restoredSandboxes lists the sandboxes that exist by the snapshot they were restored from.
func (b *Builder) restoredSandboxes(ctx context.Context) (map[string][]string, error) {
	all, err := b.api.listSandboxes(ctx, nil)
	if err != nil {
		return nil, err
	}
	bySnapshot := map[string][]string{}
	for _, sb := range all {
		if sb.SnapshotID != "" {
			bySnapshot[sb.SnapshotID] = append(bySnapshot[sb.SnapshotID], sb.ID)
		}
	}
	return bySnapshot, nil
}

// errSnapshotInUse is the server's 409 SNAPSHOT::DELETE_CONFLICT, for a sandbox restored after
// Delete looked.
var errSnapshotInUse = errors.New("a sandbox restored from it still uses it, so OpenSandbox refused to delete it " +
	"(409 SNAPSHOT::DELETE_CONFLICT) and left it Deleting: no new sandbox can start from it. Delete the sandboxes " +
	"started from this snapshot, then delete the snapshot (DELETE /snapshots/<id>)")

// deleteConflictCode is the code of that 409; the other 409 (SNAPSHOT::INVALID_STATE) is a
// snapshot still Creating.
const deleteConflictCode = "SNAPSHOT::DELETE_CONFLICT"

func (b *Builder) deleteSettledSnapshot(ctx context.Context, id string) error {
	for {
		err := b.api.deleteSnapshot(ctx, id)
		if err == nil || apihttp.IsNotFound(err) {
			return nil
		}
		e, ok := apihttp.AsError(err)
		switch {
		case !ok || e.StatusCode != http.StatusConflict:
			return err
		case e.Code == deleteConflictCode:
			return errSnapshotInUse
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return err
		}
		// Poll it (as for any wait) before trying again; it may have gone meanwhile.
		if _, err := b.api.getSnapshot(ctx, id); apihttp.IsNotFound(err) {
			return nil
		}
	}
}

// settleName leaves the name to the newest Ready snapshot, so that builds of one name converge
// however they interleave. It deletes only snapshots no newer than mine (the one this build made),
// other than the newest Ready one: mine too, when a newer Ready one already exists. A newer
// snapshot is never touched: its own build settles the name when it ends, and sees mine then.
// One that cannot go now (409: still Creating, a concurrent build) stays for that build to delete
// itself. Failures are logged; the template is usable regardless.
func (b *Builder) settleName(ctx context.Context, name string, mine snapshot, logs *buildLog) {
	named, err := b.api.snapshotsNamed(ctx, name)
	if err != nil {
		logs.Addf("warning: could not list older snapshots named %s: %v", name, err)
		return
	}
	winner := mine
	for _, s := range named {
		if s.Status.State == snapshotReady && newer(s, winner) > 0 {
			winner = s
		}
	}
	if winner.ID != mine.ID {
		logs.Addf("a newer snapshot %s (%s) was built meanwhile and serves the name", name, winner.ID)
	}
	for _, s := range named {
		if s.ID == winner.ID || newer(s, mine) > 0 {
			continue
		}
		switch err := b.api.deleteSnapshot(ctx, s.ID); {
		case err == nil || apihttp.IsNotFound(err):
			logs.Addf("deleted older snapshot %s (%s, %s)", name, s.ID, s.Status.State)
		default:
			logs.Addf("warning: kept older snapshot %s (%s): %v", name, s.ID, err)
		}
	}
}

// superseded tells whether mine vanished while this build waited for it because a newer build of
// the name settled it away (settleName deletes a Ready snapshot older than its own): the name then
// has a newer Ready snapshot, so the template this build was asked for is there.
func (b *Builder) superseded(ctx context.Context, name string, mine snapshot, err error, logs *buildLog) bool {
	if mine.ID == "" || !apihttp.IsNotFound(err) {
		return false
	}
	ready, listErr := b.api.snapshotsNamed(ctx, name, snapshotReady)
	if listErr != nil {
		return false
	}
	for _, s := range ready {
		if newer(s, mine) > 0 {
			logs.Addf("snapshot %s (%s) was replaced by the newer %s of a concurrent build", name, mine.ID, s.ID)
			return true
		}
	}
	return false
}
