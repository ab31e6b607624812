package builders

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Ensure makes sure the template described by spec is usable, building only when needed:
//  1. not forced and already usable, built from the same inputs: SKIPPED. A backend that builds
//     nothing (it only refers to what exists) adopts whatever is usable;
//  2. otherwise Build. A usable template not known to come from these inputs (other inputs, or no
//     record the backend can compare) is rebuilt, with a warning: adopting it would record inputs
//     sandboxes do not start from. Importing adopts such a template on purpose;
//  3. a failed, non-forced build whose template now resolves because a concurrent builder won (or
//     our build finished although waiting for it failed): SKIPPED. Only on proof: the backend
//     confirms the usable build was made from these inputs, or, where it cannot tell, the template
//     became usable during this attempt. An older build that was usable all along is no winner: it
//     still serves what it served before. A build that failed on an answer breaking the API
//     (ErrBadAnswer) is not adopted on that server's word.
//
// Every error and every panic comes back as a FAILED result with a stage; Ensure never panics.
func Ensure(ctx context.Context, b Builder, spec TemplateSpec, obs Observer) TemplateBuildResult {
	spec = spec.Resolved() // the files read and the fingerprint computed once for the whole build
	return withoutStepSecrets(withSupersededRemoved(ctx, b, spec, withTagsOnAdopted(ctx, b, spec, ensure(ctx, b, spec, obs))), spec)
}

func ensure(ctx context.Context, b Builder, spec TemplateSpec, obs Observer) TemplateBuildResult {
	if err := validate(b, spec); err != nil {
		return failed(err, StageValidation)
	}
	skipped := TemplateBuildResult{Status: StatusSkipped, TemplateRef: &TemplateRef{Provider: b.Backend().Name, Value: spec.TemplateID}}

	var warning string
	usableBefore := false
	if !spec.ForceRebuild {
		verdict, usable, served, err := adoptable(ctx, b, spec)
		if err != nil {
			return failed(err, StageTemplateLookup)
		}
		skipped = withBuild(skipped, b, served)
		switch usableBefore = usable; {
		case usable && !b.Backend().Builds():
			skipped.Detail = "template is already usable; nothing was built"
			return skipped
		case usable && verdict == InputsMatch:
			skipped.Detail = "template is already usable, built from these inputs; nothing was built"
			return skipped
		case usable && verdict == InputsUnknown:
			warning = "template " + spec.TemplateID + " already existed, with no record of the inputs it was built from to " +
				"compare with this configuration's: rebuilt it from this configuration (import it to adopt it as it is)"
		case usable:
			warning = "template " + spec.TemplateID + " already existed, built from other inputs (state was lost, or another " +
				"configuration builds it): rebuilt it from this configuration"
		}
	}

	result, err := build(ctx, b, spec, obs)
	if err == nil {
		if warning != "" {
			result.Warnings = append(result.Warnings, warning)
		}
		return result
	}
	if !spec.ForceRebuild && ctx.Err() == nil && !errors.Is(err, ErrBadAnswer) {
		verdict, usable, served, lookupErr := adoptable(ctx, b, spec)
		if lookupErr == nil && usable && (verdict == InputsMatch || (verdict == InputsUnknown && !usableBefore)) {
			skipped = withBuild(skipped, b, served)
			skipped.Detail = "build failed but the template now serves a build of these inputs: a concurrent builder won, or " +
				"ours finished after all (" + firstLine(err.Error()) + ")"
			return skipped
		}
	}
	return failed(err, StageTemplateBuild)
}

// adoptable tells whether the template is usable for spec's consumers and, when the backend records
// build inputs, whether the build they start (returned) was made from spec's: that backend tells
// both at once (a candidate is usable by a build of its own inputs, whatever the plain name serves).
func adoptable(ctx context.Context, b Builder, spec TemplateSpec) (verdict InputsVerdict, usable bool, served string, err error) {
	checker, ok := b.(InputsChecker)
	if !ok {
		usable, err = isUsable(ctx, b, spec.TemplateID)
		return InputsUnknown, usable, "", err
	}
	defer recoverAsError(&err)
	verdict, served, err = checker.BuiltFrom(ctx, spec)
	return verdict, served != "", served, AtStageIfBare(StageTemplateLookup, err)
}

// validate checks spec against the backend before any request is made. Unset sizing stays zero:
// backends that size templates apply WithDefaults, and Warnings must see only what the user set.
func validate(b Builder, spec TemplateSpec) error {
	return AtStage(StageValidation, spec.Validate(b.Backend()).Err())
}

func failed(err error, fallback Stage) TemplateBuildResult {
	return TemplateBuildResult{Status: StatusFailed, Stage: StageOf(err, fallback), Detail: DetailOf(err), Logs: LogsOf(err)}
}

func isUsable(ctx context.Context, b Builder, templateID string) (usable bool, err error) {
	defer recoverAsError(&err)
	usable, err = b.IsUsable(ctx, templateID)
	return usable, AtStageIfBare(StageTemplateLookup, err)
}

func build(ctx context.Context, b Builder, spec TemplateSpec, obs Observer) (result TemplateBuildResult, err error) {
	defer recoverAsError(&err)
	result, err = b.Build(ctx, spec, obs)
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

// withBuild records served as the build result's: also its template_ref where consumers start the
// build by name (Backend.RefNamesBuild).
func withBuild(result TemplateBuildResult, b Builder, served string) TemplateBuildResult {
	result.BuildID = served
	if served != "" && b.Backend().RefNamesBuild {
		ref := *result.TemplateRef
		ref.Value = served
		result.TemplateRef = &ref
	}
	return result
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// Rebuild builds spec, because the caller (a Terraform update) knows the inputs changed and the
// template's current build is stale. The one exception: the backend confirms that the current
// build was made from exactly these inputs (an earlier attempt that stopped waiting finished after
// all), which is adopted instead of built twice; force_rebuild always builds. No concurrent-winner
// check. Like Ensure, every error and panic comes back as FAILED.
func Rebuild(ctx context.Context, b Builder, spec TemplateSpec, obs Observer) TemplateBuildResult {
	spec = spec.Resolved()
	return withoutStepSecrets(withSupersededRemoved(ctx, b, spec, withTagsOnAdopted(ctx, b, spec, rebuild(ctx, b, spec, obs))), spec)
}

func rebuild(ctx context.Context, b Builder, spec TemplateSpec, obs Observer) TemplateBuildResult {
	if err := validate(b, spec); err != nil {
		return failed(err, StageValidation)
	}
	if _, ok := b.(InputsChecker); ok && !spec.ForceRebuild {
		if verdict, usable, served, err := adoptable(ctx, b, spec); err == nil && usable && verdict == InputsMatch {
			return withBuild(TemplateBuildResult{Status: StatusSkipped, TemplateRef: &TemplateRef{Provider: b.Backend().Name, Value: spec.TemplateID},
				Detail: "a build from these inputs is already usable (an earlier attempt finished after it stopped waiting): adopted, nothing was built"}, b, served)
		}
	}
	result, err := build(ctx, b, spec, obs)
	if err != nil {
		return failed(err, StageTemplateBuild)
	}
	return result
}

// withoutStepSecrets scrubs the spec's StepSecrets from what the result says in its own words, its
// detail and warnings, whichever backend or check wrote them (a failing step's command, a message
// quoting a value). The backends scrub their build logs, and the progress they stream, themselves.
func withoutStepSecrets(result TemplateBuildResult, spec TemplateSpec) TemplateBuildResult {
	secrets := spec.StepSecrets()
	if len(secrets) == 0 {
		return result
	}
	result.Detail = Scrub(result.Detail, secrets...)
	for i, w := range result.Warnings {
		result.Warnings[i] = Scrub(w, secrets...)
	}
	return result
}
