package e2b

import (
	"context"
	"fmt"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Build makes the template named spec.TemplateID (see the package doc for the flow). The
// template is reported through builders.NotifyCreated as soon as it exists.
func (b *Builder) Build(ctx context.Context, spec builders.TemplateSpec) (builders.TemplateBuildResult, error) {
	plan, err := planBuild(spec)
	if err != nil {
		return builders.TemplateBuildResult{}, err
	}
	alias := spec.TemplateID
	logs := &buildLog{secrets: plan.secrets, progress: func(line string) { builders.ReportProgress(ctx, line) }}
	logs.add(plan.notes...)

	created, err := b.registerWhenSlotFree(ctx, plan.create, logs)
	if err != nil {
		// A 403 or 409 here is E2B's word on the name ("Alias 'x' already used" by another template
		// of the team: register_build.go), kept at TEMPLATE_CREATE, not taken for a bad API key.
		return builders.TemplateBuildResult{}, atStage(builders.StageTemplateCreate, fmt.Errorf("creating template %s: %w", alias, err), logs.result()...)
	}
	builders.NotifyCreated(ctx, builders.TemplateRef{Provider: builders.ProviderE2B, Value: alias})
	logs.addf("template %s (%s): build %s requested with %d CPU, %d MB", alias, created.TemplateID, created.BuildID,
		plan.create.CPUCount, plan.create.MemoryMB)

	if err := b.startBuild(ctx, created, plan); err != nil {
		return builders.TemplateBuildResult{}, atStage(builders.StageTemplateBuild, fmt.Errorf("starting build %s of template %s: %w", created.BuildID, alias, err), logs.result()...)
	}
	logs.addf("build %s started from %s", created.BuildID, source(plan.start))

	hint := ""
	if plan.defaultedStart {
		hint = defaultStartCmdHint
	}
	if err := b.waitForBuild(ctx, created.TemplateID, created.BuildID, logs, hint); err != nil {
		b.waitForConcurrentBuilds(ctx, created, logs)
		return builders.TemplateBuildResult{}, err
	}
	logs.addf("template %s is ready", alias)
	return builders.Succeeded(builders.ProviderE2B, alias, logs.result()), nil
}

// startBuild starts the build. A start that was retried after reaching the server is refused as
// already started; the build having left "waiting" then proves our earlier attempt got through.
func (b *Builder) startBuild(ctx context.Context, created templateRequestResponseV3, plan buildPlan) error {
	err := b.api.startBuild(ctx, created.TemplateID, created.BuildID, plan.start, plan.secrets)
	if s := statusOf(err); s != http.StatusBadRequest && s != http.StatusConflict {
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
