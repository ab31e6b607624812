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
		return false, atStage(builders.StageTemplateLookup, fmt.Errorf("looking up snapshot %s: %w", templateID, err))
	}
	return len(ready) > 0, nil
}

// ResolveSnapshotID returns the id to start sandboxes from (CreateSandboxRequest.snapshotId) for
// a template reference: the newest Ready snapshot with that name.
func (b *Builder) ResolveSnapshotID(ctx context.Context, name string) (string, error) {
	ready, err := b.api.snapshotsNamed(ctx, name, snapshotReady)
	if err != nil {
		return "", atStage(builders.StageTemplateLookup, fmt.Errorf("resolving snapshot %s: %w", name, err))
	}
	if len(ready) == 0 {
		return "", builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("snapshot %s: %w", name, ErrSnapshotNotFound))
	}
	return slices.MaxFunc(ready, newer).ID, nil
}

// newer orders snapshots by createdAt, then id, so duplicates resolve the same way every time.
func newer(a, b snapshot) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// Delete removes every snapshot named templateID. Gone already is fine; one still Creating (the
// server refuses with 409) is polled and retried until it settles or ctx ends.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	named, err := b.api.snapshotsNamed(ctx, templateID)
	if err != nil {
		return atStage(builders.StageTemplateLookup, fmt.Errorf("listing snapshots named %s: %w", templateID, err))
	}
	for _, s := range named {
		if err := b.deleteSettledSnapshot(ctx, s.ID); err != nil {
			return atStage(builders.StageSnapshot, fmt.Errorf("deleting snapshot %s (%s): %w", templateID, s.ID, err))
		}
	}
	return nil
}

func (b *Builder) deleteSettledSnapshot(ctx context.Context, id string) error {
	for {
		err := b.api.deleteSnapshot(ctx, id)
		if err == nil || IsNotFound(err) {
			return nil
		}
		if statusOf(err) != http.StatusConflict {
			return err
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return err
		}
		// Poll it (as for any wait) before trying again; it may have gone meanwhile.
		if _, err := b.api.getSnapshot(ctx, id); IsNotFound(err) {
			return nil
		}
	}
}

// deleteOlderSnapshots settles the name on the snapshot just built: every other snapshot with the
// name goes. One that cannot go now (409: still Creating, a concurrent build) stays, and
// newest-Ready-wins decides later. Failures are logged; the new template is ready regardless.
func (b *Builder) deleteOlderSnapshots(ctx context.Context, name, keepID string, logs *buildLog) {
	named, err := b.api.snapshotsNamed(ctx, name)
	if err != nil {
		logs.addf("warning: could not list older snapshots named %s: %v", name, err)
		return
	}
	for _, s := range named {
		if s.ID == keepID {
			continue
		}
		switch err := b.api.deleteSnapshot(ctx, s.ID); {
		case err == nil || IsNotFound(err):
			logs.addf("deleted older snapshot %s (%s, %s)", name, s.ID, s.Status.State)
		default:
			logs.addf("warning: kept older snapshot %s (%s): %v", name, s.ID, err)
		}
	}
}
