package e2b

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// maxBuildAttempts bounds how often a build cancelled by a concurrent build of the same template
// is registered again, when that other build failed too.
const maxBuildAttempts = 3

// Build makes the template named spec.TemplateID (see the package doc for the flow). The
// template is reported to obs as soon as it exists.
func (b *Builder) Build(ctx context.Context, spec builders.TemplateSpec, obs builders.Observer) (builders.TemplateBuildResult, error) {
	plan, err := planBuild(spec)
	if err != nil {
		return builders.TemplateBuildResult{}, err
	}
	// The API key too: a build's failure reason and log lines are E2B's text, which may quote it.
	logs := &buildLog{builders.BuildLog{Secrets: append(plan.secrets, b.api.APIKey), Progress: obs.Progress}}
	logs.Add(plan.notes...)
	if !spec.ForceRebuild {
		adopted, err := b.awaitInFlight(ctx, spec, logs, obs, plan.explain())
		if err != nil {
			return builders.TemplateBuildResult{}, builders.AtStageIfBare(builders.StageTemplateLookup, err)
		}
		if adopted != "" { // nothing was built by this run: SKIPPED, as a concurrent winner is
			return builders.TemplateBuildResult{Status: builders.StatusSkipped, TemplateRef: &builders.TemplateRef{Provider: Name, Value: spec.TemplateID},
				BuildID: adopted, Logs: logs.Lines(),
				Detail: "build " + adopted + " of these inputs, which an earlier or concurrent run started, finished: adopted, not built again"}, nil
		}
	}
	for attempt := 1; ; attempt++ {
		buildID, err := b.buildOnce(ctx, spec.TemplateID, plan, logs, obs)
		if err == nil {
			logs.Addf("template %s is ready", spec.TemplateID)
			result := builders.Succeeded(Name, spec.TemplateID, logs.Lines())
			result.BuildID = buildID
			return result, nil
		}
		if attempt == maxBuildAttempts || !cancelledByAnotherBuild(err) || ctx.Err() != nil {
			return builders.TemplateBuildResult{}, err
		}
		if usable, lookupErr := b.resolves(ctx, spec.TemplateID, consumersRef(spec)); lookupErr != nil || usable {
			return builders.TemplateBuildResult{}, err // the other build won: Ensure decides on adopting it
		}
		logs.Add("our build was cancelled by a concurrent build of this template that did not finish either: building again")
		if err := apihttp.Sleep(ctx, b.pollInterval+rand.N(b.pollInterval+1)); err != nil {
			return builders.TemplateBuildResult{}, err
		}
	}
}

// buildOnce registers, starts and waits for one build. A build found superseded before its start
// is not started: E2B's start handler cancels the template's other builds before it checks that
// the build is still waiting (handlers/template_start_build_v2.go), so starting it would kill the
// newer build that superseded it, and both would fail.
func (b *Builder) buildOnce(ctx context.Context, alias string, plan buildPlan, logs *buildLog, obs builders.Observer) (string, error) {
	created, err := b.registerWhenSlotFree(ctx, plan.create, logs)
	if err != nil {
		// A 403 or 409 here is E2B's word on the name ("Alias 'x' already used" by another template
		// of the team: register_build.go), kept at TEMPLATE_CREATE, not taken for a bad API key.
		return "", builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("creating template %s: %w", alias, err), logs.Lines()...)
	}
	if created.TemplateID == "" || created.BuildID == "" {
		return "", builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("creating template %s: E2B answered without a templateID and buildID", alias), logs.Lines()...)
	}
	obs.Created(builders.TemplateRef{Provider: Name, Value: alias})
	logs.Addf("template %s (%s): build %s requested with %d CPU, %d MB", alias, created.TemplateID, created.BuildID,
		plan.create.CPUCount, plan.create.MemoryMB)

	if info, err := b.api.buildStatus(ctx, created.TemplateID, created.BuildID, 0); err == nil && info.Status == buildError {
		b.waitForConcurrentBuilds(ctx, created, logs)
		return "", builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("build %s of template %s was superseded before it started: %s",
			created.BuildID, alias, reasonOf(info)), logs.Lines()...)
	}
	if err := b.uploadFiles(ctx, created.TemplateID, plan.uploads, logs); err != nil {
		return "", builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("build %s of template %s: %w", created.BuildID, alias, err), logs.Lines()...)
	}
	if err := b.startBuild(ctx, created, plan); err != nil {
		return "", builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("starting build %s of template %s: %w%s", created.BuildID, alias, err,
			plan.refusedStepsHint(err)), logs.Lines()...)
	}
	logs.Addf("build %s started from %s", created.BuildID, source(plan.start))

	if err := b.waitForBuild(ctx, created.TemplateID, created.BuildID, logs, plan.explain()); err != nil {
		b.waitForConcurrentBuilds(ctx, created, logs)
		return "", err
	}
	return created.BuildID, nil
}

// cancelledByAnotherBuild tells whether a build failed because another build of the template
// superseded or cancelled it (register_build.go: "superseded by a newer one"; a start's
// CheckAndCancelConcurrentBuilds), not because of its own inputs.
func cancelledByAnotherBuild(err error) bool {
	text := strings.ToLower(err.Error())
	return strings.Contains(text, "superseded") || strings.Contains(text, "cancel")
}

func reasonOf(info templateBuildInfo) string {
	if info.Reason != nil && info.Reason.Message != "" {
		return info.Reason.Message
	}
	return "no reason given"
}

// startBuild starts the build. A start that was retried after reaching the server is refused as
// already started; the build having left "waiting" then proves our earlier attempt got through.
func (b *Builder) startBuild(ctx context.Context, created templateRequestResponseV3, plan buildPlan) error {
	err := b.api.startBuild(ctx, created.TemplateID, created.BuildID, plan.start, plan.secrets)
	if s := apihttp.StatusOf(err); s != http.StatusBadRequest && s != http.StatusConflict {
		return err
	}
	info, statusErr := b.api.buildStatus(ctx, created.TemplateID, created.BuildID, 0)
	if statusErr == nil && info.Status != "" && info.Status != buildWaiting {
		return nil
	}
	return err
}

func source(start templateBuildStartV2) string {
	if start.FromTemplate != "" {
		return "template " + start.FromTemplate
	}
	if start.FromImageRegistry != nil {
		return start.FromImage + " (" + start.FromImageRegistry.Type + " registry credentials)"
	}
	return start.FromImage
}
