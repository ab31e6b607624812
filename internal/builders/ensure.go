package builders

import (
	"context"
	"fmt"
	"strings"
)

// Ensure makes sure the template described by spec is usable, building only when needed:
//  1. not forced and already usable: SKIPPED;
//  2. otherwise Build;
//  3. a failed, non-forced build whose template now resolves: SKIPPED (a concurrent builder won).
//
// Every error and every panic comes back as a FAILED result with a stage; Ensure never panics.
func Ensure(ctx context.Context, b Builder, spec TemplateSpec) TemplateBuildResult {
	if err := validate(b, spec); err != nil {
		return failed(err, StageValidation)
	}
	provider := b.Provider()
	skipped := TemplateBuildResult{Status: StatusSkipped, TemplateRef: &TemplateRef{Provider: provider, Value: spec.TemplateID}}

	if !spec.ForceRebuild {
		usable, err := isUsable(ctx, b, spec.TemplateID)
		if err != nil {
			return failed(err, StageTemplateLookup)
		}
		if usable {
			skipped.Detail = "template is already usable; nothing was built"
			return skipped
		}
	}

	result, err := build(ctx, b, spec)
	if err == nil {
		return result
	}
	if !spec.ForceRebuild && ctx.Err() == nil {
		if usable, lookupErr := isUsable(ctx, b, spec.TemplateID); lookupErr == nil && usable {
			skipped.Detail = "build failed but the template now resolves: a concurrent builder won (" + firstLine(err.Error()) + ")"
			return skipped
		}
	}
	return failed(err, StageTemplateBuild)
}

// validate checks spec against the backend before any request is made. Unset sizing stays zero:
// backends that size templates apply WithDefaults, and Warnings must see only what the user set.
func validate(b Builder, spec TemplateSpec) error {
	return AtStage(StageValidation, spec.Validate(b.Provider()))
}

func failed(err error, fallback Stage) TemplateBuildResult {
	return TemplateBuildResult{Status: StatusFailed, Stage: StageOf(err, fallback), Detail: DetailOf(err), Logs: LogsOf(err)}
}

func isUsable(ctx context.Context, b Builder, templateID string) (usable bool, err error) {
	defer recoverAsError(&err)
	usable, err = b.IsUsable(ctx, templateID)
	return usable, AtStageIfBare(StageTemplateLookup, err)
}

func build(ctx context.Context, b Builder, spec TemplateSpec) (result TemplateBuildResult, err error) {
	defer recoverAsError(&err)
	result, err = b.Build(ctx, spec)
	if err == nil && result.Status == StatusFailed {
		err = AtStage(result.Stage, fmt.Errorf("%s", result.Detail), result.Logs...)
	}
	return result, err
}

// recoverAsError turns a panic in backend code into an INTERNAL error instead of crashing the plugin.
func recoverAsError(err *error) {
	if r := recover(); r != nil {
		*err = AtStage(StageInternal, fmt.Errorf("panic in builder (a provider bug, please report it): %v", r))
	}
}

// AtStageIfBare wraps err with stage unless it already carries one.
func AtStageIfBare(stage Stage, err error) error {
	if err == nil || StageOf(err, "") != "" {
		return err
	}
	return AtStage(stage, err)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// Rebuild builds spec unconditionally: no fast path and no concurrent-winner check, because the
// caller (a Terraform update) knows the inputs changed and an existing template is stale.
// Like Ensure, every error and panic comes back as FAILED.
func Rebuild(ctx context.Context, b Builder, spec TemplateSpec) TemplateBuildResult {
	if err := validate(b, spec); err != nil {
		return failed(err, StageValidation)
	}
	result, err := build(ctx, b, spec)
	if err != nil {
		return failed(err, StageTemplateBuild)
	}
	return result
}
