package daytona

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Dormant returns the template's snapshot consumers would start from when it is inactive (Daytona
// deactivates a snapshot unused for 14 days): no active build, and the newest is inactive.
func (b *Builder) Dormant(ctx context.Context, templateID string) (string, error) {
	builds, err := b.api.builds(ctx, templateID)
	if err != nil {
		return "", err
	}
	if _, ok := current(builds); ok {
		return "", nil
	}
	for _, s := range builds { // newest first
		if s.State == stateInactive {
			return s.Name, nil
		}
	}
	return "", nil
}

// Activate activates the snapshot called build and waits until it is active: no build runs.
func (b *Builder) Activate(ctx context.Context, build string, obs builders.Observer) error {
	s, found, err := b.api.getSnapshot(ctx, build)
	if err != nil {
		return err
	}
	if !found {
		return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("snapshot %s is gone: it must be built again", build))
	}
	log := &builders.BuildLog{Progress: obs.OnProgress}
	_, err = b.activate(ctx, s, log)
	return err
}

// activate asks the server to activate s, waiting out its refusal while a deactivation settles
// (snapshot.service.ts activateSnapshot: 400 within ActivationCooldown of the snapshot's last
// update), then waits for it to be active. A snapshot already on its way (pending, pulling) or
// active is only waited for.
func (b *Builder) activate(ctx context.Context, s snapshot, log *builders.BuildLog) (snapshot, error) {
	for s.State == stateInactive {
		if wait := s.UpdatedAt.Add(ActivationCooldown).Sub(b.now()); wait > 0 {
			log.Addf("%s was deactivated recently: Daytona refuses to activate it for %s more", s.Name, wait.Round(1e9))
			if err := apihttp.Sleep(ctx, wait); err != nil {
				return snapshot{}, fmt.Errorf("waiting to activate %s: %w", s.Name, err)
			}
		}
		activated, err := b.api.activateSnapshot(ctx, s.ID)
		switch {
		case err == nil:
			log.Addf("activated %s", s.Name)
			s = activated
		case cooling(err):
			if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
				return snapshot{}, fmt.Errorf("waiting to activate %s: %w", s.Name, err)
			}
			fallthrough
		case statusOf(err) == http.StatusBadRequest: // it changed state meanwhile: read it again
			got, found, getErr := b.api.getSnapshot(ctx, s.ID)
			if getErr != nil || !found {
				return snapshot{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("activating %s: %w", s.Name, err))
			}
			if got.State == stateInactive && !cooling(err) {
				return snapshot{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("activating %s: %w", s.Name, err))
			}
			s = got
		default:
			return snapshot{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("activating %s: %w", s.Name, err))
		}
	}
	return b.waitActive(ctx, s, log)
}

// cooling tells whether err is the server's refusal during its cooldown after a deactivation.
func cooling(err error) bool {
	e, ok := apihttp.AsError(err)
	return ok && e.StatusCode == http.StatusBadRequest && strings.Contains(strings.ToLower(e.Message), "deactivation is still in progress")
}
