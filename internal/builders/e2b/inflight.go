package e2b

import (
	"context"
	"fmt"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// awaitInFlight waits for a running build of the spec's inputs instead of registering another: the
// one a create or update left behind when it stopped waiting (timeout, Ctrl-C, kill -9) while E2B
// went on building, or a concurrent run's of the same configuration. It returns that build's id when
// it finished and the spec's consumers start it (consumersRef); "" when there is none to wait for,
// or it failed, or they start another build: the caller then builds. Only a started build is waited
// for: one still waiting to start may belong to a run that died before starting it, and a new
// registration supersedes it.
func (b *Builder) awaitInFlight(ctx context.Context, spec builders.TemplateSpec, logs *buildLog, obs builders.Observer, explain failureHints) (string, error) {
	alias := spec.TemplateID
	remote, found, err := b.findTemplate(ctx, alias)
	if err != nil || !found {
		return "", err
	}
	tags, err := b.tagsOf(ctx, remote.TemplateID)
	buildID := newestOf(tags, inputsTag(spec.Fingerprint()))
	if err != nil || buildID == "" {
		return "", err
	}
	builds, err := b.api.templateBuilds(ctx, remote.TemplateID)
	if err != nil {
		return "", builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing builds of template %s: %w", alias, err))
	}
	if !buildRunning(builds.Builds, buildID) {
		return "", nil
	}
	obs.Created(builders.TemplateRef{Provider: Name, Value: alias})
	logs.Addf("build %s of these inputs is already running (an earlier run stopped waiting for it, or a concurrent run started it): "+
		"waiting for it instead of building again", buildID)
	if err := b.waitForBuild(ctx, remote.TemplateID, buildID, logs, explain); err != nil {
		if ctx.Err() != nil {
			return "", err
		}
		logs.Addf("that build did not succeed (%s): building again", builders.DetailOf(err))
		return "", nil
	}
	if served, err := b.served(ctx, alias, consumersRef(spec), buildID); err != nil || served != buildID {
		logs.Addf("build %s finished, but the template serves another build: building again", buildID)
		return "", err
	}
	return buildID, nil
}

func buildRunning(builds []templateBuild, buildID string) bool {
	for _, build := range builds {
		if build.BuildID == buildID {
			return build.Status == buildBuilding
		}
	}
	return false
}

// inFlight tells whether a build may still become ready: building, or waiting to be started by a
// builder that registered it less than waitingGrace ago (an older waiting build was abandoned).
func inFlight(build templateBuild, now time.Time) bool {
	return build.Status == buildBuilding || (build.Status == buildWaiting && now.Sub(build.CreatedAt) < waitingGrace)
}
