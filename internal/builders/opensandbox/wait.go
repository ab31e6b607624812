package opensandbox

import (
	"context"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// waitRunning polls the builder sandbox until Running. Failed (or stopping on its own) is an
// error: an image pull reason is IMAGE_PULL; anything else means its entrypoint, NeutralEntrypoint,
// ended, which ends the sandbox (OSB components/execd/bootstrap.sh). Unknown states are waited
// out, as the spec asks clients to tolerate them.
func (b *Builder) waitRunning(ctx context.Context, sb builderSandbox) error {
	for {
		got, err := b.api.getSandbox(ctx, sb.id)
		if err != nil {
			return builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("waiting for builder sandbox %s: %w", sb.id, err))
		}
		switch got.Status.State {
		case stateRunning:
			return nil
		case stateFailed, stateStopping, stateTerminated:
			if builders.IsImagePullFailure(got.Status.Reason, got.Status.Message) {
				return builders.AtStage(builders.StageImagePull, fmt.Errorf("builder sandbox %s is %s%s", sb.id, got.Status.State, describe(got.Status)))
			}
			return builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("builder sandbox %s ended (%s%s), although its entrypoint was %s",
				sb.id, got.Status.State, describe(got.Status), strings.Join(NeutralEntrypoint, " ")))
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("waiting for builder sandbox %s to run: %w", sb.id, err))
		}
	}
}

// waitSnapshotReady polls the snapshot until Ready; Failed (or Deleting) is SNAPSHOT.
func (b *Builder) waitSnapshotReady(ctx context.Context, id string) error {
	for {
		snap, err := b.api.getSnapshot(ctx, id)
		if err != nil {
			return builders.AtStage(builders.StageSnapshot, fmt.Errorf("waiting for snapshot %s: %w", id, err))
		}
		switch snap.Status.State {
		case snapshotReady:
			return nil
		case snapshotFailed, snapshotDeleting:
			return builders.AtStage(builders.StageSnapshot, fmt.Errorf("snapshot %s is %s%s", id, snap.Status.State, describe(snap.Status)))
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return builders.AtStage(builders.StageSnapshot, fmt.Errorf("waiting for snapshot %s to be Ready: %w", id, err))
		}
	}
}

func describe(s status) string {
	parts := []string{}
	for _, p := range []string{s.Reason, s.Message} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ": ")
}
