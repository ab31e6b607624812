package e2b

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// PollGrowth is the factor by which the wait between status polls grows, up to the cap.
const PollGrowth = 1.5

// NextPollDelay is the wait after one of delay: PollGrowth times longer (at least a nanosecond, so
// it grows from any start), at most maxDelay. internal/bench predicts its report's poll times by it.
func NextPollDelay(delay, maxDelay time.Duration) time.Duration {
	return min(maxDelay, max(delay+1, time.Duration(float64(delay)*PollGrowth)))
}

// waitForBuild polls the build until it is ready or failed. The first poll is immediate; then
// the wait grows from pollInterval to maxPoll. Log entries are read from logsOffset = entries
// seen so far, so none is lost or repeated; a full page is followed by the next after the shortest
// wait, never at once, so a build that logs fast cannot turn the poll into a request storm.
// explain adds what the build's plan knows to a failure (failureHints).
func (b *Builder) waitForBuild(ctx context.Context, templateID, buildID string, logs *buildLog, explain failureHints) error {
	offset, delay := 0, b.pollInterval
	for {
		info, err := b.api.buildStatus(ctx, templateID, buildID, offset)
		if err == nil {
			err = statusProblem(info, buildID)
		} else if isNotJSON(err) {
			err = fmt.Errorf("%w: %w", builders.ErrBadAnswer, err)
		}
		if err != nil {
			return builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("waiting for build %s: %w", buildID, err), logs.Lines()...)
		}
		offset += len(info.LogEntries)
		logs.entries(info.LogEntries)
		wait := b.pollInterval // after a full page: more entries are waiting, read them before judging the status
		if len(info.LogEntries) < statusLogsLimit {
			switch info.Status {
			case buildReady:
				return nil
			case buildError:
				return b.buildFailed(info, logs, explain)
			}
			wait, delay = delay, NextPollDelay(delay, b.maxPoll)
		}
		if err := apihttp.Sleep(ctx, wait); err != nil {
			return builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("waiting for build %s: %w", buildID, err), logs.Lines()...)
		}
	}
}

// buildFailed is the error of a build that ended in "error": its reason, at IMAGE_PULL when the
// reason or the failing log lines show the image could not be pulled, else TEMPLATE_BUILD.
func (b *Builder) buildFailed(info templateBuildInfo, logs *buildLog, explain failureHints) error {
	reason := "no reason given"
	texts := []string{}
	if r := info.Reason; r != nil {
		if r.Message != "" {
			reason = r.Message
		}
		if r.Step != "" {
			reason = "step " + explain.step(r.Step) + ": " + reason
		}
		texts = append(texts, r.Message)
		for _, e := range r.LogEntries {
			texts = append(texts, e.Message)
		}
	}
	stage := builders.StageTemplateBuild
	switch {
	case builders.IsImagePullFailure(texts...):
		stage = builders.StageImagePull
	case explain.startHint != "" && failedAtStartCmd(texts...):
		reason += "; " + explain.startHint
	}
	return builders.AtStage(stage, fmt.Errorf("build %s failed: %s", info.BuildID, builders.Scrub(reason, logs.Secrets...)), logs.Lines()...)
}

// buildStatuses are E2B's (TemplateBuildStatus).
var buildStatuses = []string{buildWaiting, buildBuilding, buildReady, buildError}

// statusProblem is what makes a 200 answer to a status poll no status of build buildID: a status
// E2B does not have (none included), or another build's. Waiting on would poll until the timeout,
// or take someone else's build for ours.
func statusProblem(info templateBuildInfo, buildID string) error {
	switch {
	case !slices.Contains(buildStatuses, info.Status):
		return fmt.Errorf("%w: E2B answered the status of build %s with status %q, not one of %s", builders.ErrBadAnswer,
			buildID, info.Status, strings.Join(buildStatuses, ", "))
	case info.BuildID != "" && info.BuildID != buildID:
		return fmt.Errorf("%w: E2B answered the status of build %s with a status about build %s", builders.ErrBadAnswer, buildID, info.BuildID)
	}
	return nil
}

// isNotJSON tells a status answer that could not be decoded from one that did not come.
func isNotJSON(err error) bool {
	var syntax *json.SyntaxError
	var wrongType *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &wrongType)
}
