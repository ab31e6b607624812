package e2b

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// SlotPollInterval is how often a registration refused by the team's build limit is retried.
// The limit clears only when one of the team's builds ends (minutes, not seconds), so the wait
// lasts as long as the caller's deadline allows; one request a second per waiting template keeps
// the time lost after a slot frees small against a build's length.
const SlotPollInterval = time.Second

// waitingGrace is how long another build may sit in "waiting" and still count as in flight: its
// builder registered it and is about to start it. An older waiting build was abandoned.
const waitingGrace = 2 * time.Minute

// registerWhenSlotFree registers the build, waiting while E2B answers 429: "you have reached the
// maximum number of concurrent template builds (N)" (packages/api/internal/template/register_build.go)
// clears when another build of the team ends, so it is waited out, not failed after a few retries.
func (b *Builder) registerWhenSlotFree(ctx context.Context, req templateBuildRequestV3, logs *buildLog) (templateRequestResponseV3, error) {
	for waited := false; ; {
		created, err := b.api.createTemplate(ctx, req)
		if apihttp.StatusOf(err) != http.StatusTooManyRequests {
			return created, err
		}
		if !waited {
			logs.Addf("waiting for a free build slot: %s", apiMessage(err))
			waited = true
		}
		if err := b.api.WaitRetryAfter(ctx, err, SlotPollInterval+rand.N(SlotPollInterval/4)); err != nil {
			return created, fmt.Errorf("waiting for a free build slot: %w", err)
		}
	}
}

// waitForConcurrentBuilds waits, after our build failed, while another build of the same template
// is in flight: a concurrent apply whose start cancelled ours
// (handlers/template_start_build_v2.go CheckAndCancelConcurrentBuilds) or whose registration
// superseded it (register_build.go). Ensure then re-checks the template, and reports SKIPPED only
// if that build really made it usable. It gives up quietly: the caller reports our own failure.
func (b *Builder) waitForConcurrentBuilds(ctx context.Context, created templateRequestResponseV3, logs *buildLog) {
	delay := b.pollInterval
	for announced := false; ctx.Err() == nil; announced = true {
		t, err := b.api.templateBuilds(ctx, created.TemplateID)
		if err != nil || !otherBuildInFlight(t.Builds, created.BuildID, time.Now()) {
			return
		}
		if !announced {
			logs.Add("another build of this template is in flight (a concurrent apply?): waiting for it to finish")
		}
		if apihttp.Sleep(ctx, delay) != nil {
			return
		}
		delay = NextPollDelay(delay, b.maxPoll)
	}
}

func otherBuildInFlight(builds []templateBuild, ours string, now time.Time) bool {
	for _, build := range builds {
		if build.BuildID == ours {
			continue
		}
		if inFlight(build, now) {
			return true
		}
	}
	return false
}

func apiMessage(err error) string {
	if e, ok := apihttp.AsError(err); ok && strings.TrimSpace(e.Message) != "" {
		return e.Message
	}
	return err.Error()
}
