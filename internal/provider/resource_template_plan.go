package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// buildInputsChanged tells whether a plan needs a rebuild: a build input changed (see
// templateModel's roles; credentials and settings are none: changing them alone makes no API
// call), or the image's tag moved.
func buildInputsChanged(plan, state templateModel) bool {
	for _, f := range templateCodec().withRole(roleInput) {
		if !withSizingDefault(f, plan.value(f)).Equal(withSizingDefault(f, state.value(f))) {
			return true
		}
	}
	return digestMoved(plan.ImageDigest, state.ImageDigest)
}

// buildPlan is what an update does with the build, decided once in ModifyPlan (planBuild) and
// read back by Update (plannedFor).
type buildPlan int

const (
	planKeep     buildPlan = iota // no API call: the outcome stays the state's
	planBuild                     // the outcome is unknown: Update rebuilds
	planActivate                  // a dormant build is woken, not built (builders.Activator)
)

// plannedFor reads the decision back from the plan and the state it was made from: a build plans
// its outcome unknown, an activation plans a dormant record's status known (planActivation).
func plannedFor(plan, state templateModel) buildPlan {
	switch {
	case plan.Status.IsUnknown():
		return planBuild
	case state.Status.ValueString() == statusInactive:
		return planActivate
	}
	return planKeep
}

// planActivation plans waking the dormant build state records: the same build, status SKIPPED
// (nothing is built), the detail known after apply.
func (m *templateModel) planActivation(state templateModel) {
	m.copyResult(state)
	m.Status = types.StringValue(string(builders.StatusSkipped))
	m.Detail = types.StringUnknown()
}

// sizingDefaults are what an unset cpu_count or memory_mb means: the size E2B builds with and the
// build's fingerprint records. Writing a default out, or removing it, changes no build input, so
// it builds nothing, not even with force_rebuild (which forces a build, not a change of inputs).
var sizingDefaults = map[string]int64{"cpu_count": builders.DefaultSandboxCPUCount, "memory_mb": builders.DefaultSandboxMemoryMB}

// withSizingDefault is v, an input of field f, with an unset size read as its default.
func withSizingDefault(f codecField, v attr.Value) attr.Value {
	if def, sized := sizingDefaults[f.name]; sized && v.IsNull() {
		return types.Int64Value(def)
	}
	return v
}

// keepsBuild tells whether an update keeps the current build: no build input changed and nothing
// asks for a build (a failed one, or the template serving another build), or the state comes from
// an import whose inputs the update only adopts.
func keepsBuild(lc lifecycle, plan, state templateModel) bool {
	return lc == lifecycleImported || (!lc.rebuilds() && !buildInputsChanged(plan, state))
}

// unchanged tells whether the plan changes nothing and the state asks for no build: a no-op plan
// of a refreshed resource, with nothing to keep or check.
func unchanged(ctx context.Context, req resource.ModifyPlanRequest) bool {
	if !req.Plan.Raw.Equal(req.State.Raw) {
		return false
	}
	var status types.String
	req.State.GetAttribute(ctx, path.Root("status"), &status)
	return status.ValueString() != string(builders.StatusFailed) && status.ValueString() != statusSuperseded &&
		status.ValueString() != statusInactive
}

// planBuild checks the backend and decides, once, what the build outcome plans as: the template_ref
// of a create; for an update, the state's outcome when it keeps the build (or adopts an import's
// inputs), unknown when it rebuilds, which is what Update follows (the
// framework plans it unknown only when the configuration changed, not when only the served build,
// a failed record or the files of file steps ask for the build).
func (r *templateResource) planBuild(ctx context.Context, req resource.ModifyPlanRequest, creating bool, plan *templateModel, state templateModel,
	resp *resource.ModifyPlanResponse) {
	if plan.Backend.IsUnknown() {
		return
	}
	builder, err := r.backends.Builder(ctx, plan.Backend.ValueString())
	if err != nil && !knownLater(err) {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	if err == nil {
		checkBuildTimeout(ctx, builder, creating, plan.Timeouts, resp)
	}
	if creating {
		if descriptor, err := backends.Named(plan.Backend.ValueString()); err == nil && descriptor.Builds() && !descriptor.RefNamesBuild &&
			!plan.TemplateID.IsUnknown() {
			plan.TemplateRef = templateRefValue(&builders.TemplateRef{Provider: descriptor.Name, Value: plan.TemplateID.ValueString()})
		}
		return
	}
	lc, diags := lifecycleOf(ctx, state, req.Private)
	resp.Diagnostics.Append(diags...)
	keep := keepsBuild(lc, *plan, state)
	if resp.Diagnostics.HasError() {
		return
	}
	if keep && buildInputsChanged(*plan, state) && builder != nil { // adopting an import
		keep = adoptsImport(ctx, builder, *plan, resp)
	}
	if keep && lc == lifecycleDormant { // no input changed: wake the build instead of building it again
		plan.planActivation(state)
		resp.Diagnostics.AddAttributeWarning(path.Root("build_id"), "Template inactive: this apply activates it",
			fmt.Sprintf("Template %q: %s.", plan.TemplateID.ValueString(), state.Detail.ValueString()))
		return
	}
	if lc == lifecycleSuperseded {
		resp.Diagnostics.AddAttributeWarning(path.Root("build_id"), "Template serves another build",
			fmt.Sprintf("Template %q: %s.", plan.TemplateID.ValueString(), state.Detail.ValueString()))
	}
	if keep {
		plan.copyResult(state)
	} else {
		plan.unknownResult()
	}
}

// adoptsImport decides, at the plan after an import, whether the configured inputs can be adopted
// without a build: only when the backend cannot tell what the template was built from (a warning
// says so) or tells that it was built from these inputs. A template built from other inputs is
// rebuilt, and the plan says why; the import flag is dropped so apply does what was planned.
func adoptsImport(ctx context.Context, b builders.Builder, plan templateModel, resp *resource.ModifyPlanResponse) bool {
	checker, ok := b.(builders.InputsChecker)
	if !ok {
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template's inputs unknown",
			"The "+b.Backend().Title+" backend records no inputs a template was built from, so the configuration is adopted "+
				"as it is, without comparing them. Set force_rebuild = true, or change rebuild_triggers, to build it from this configuration.")
		return true
	}
	spec, diags := plan.spec(ctx, plan)
	if diags.HasError() || plan.Image.IsUnknown() {
		return true // unknown inputs: nothing to compare yet
	}
	verdict, _, err := checker.BuiltFrom(ctx, spec)
	switch {
	case err != nil:
		resp.Diagnostics.AddWarning("Imported template's inputs not checked", err.Error()+": the configured inputs are adopted as they are.")
	case verdict == builders.InputsUnknown:
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template's inputs unknown",
			"The template carries no record of the inputs it was built from (another tool built it), so the configuration "+
				"is adopted without comparing them. Set force_rebuild = true, or change rebuild_triggers, to build it from this configuration.")
	case verdict == builders.InputsDiffer:
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template built from other inputs",
			"The template's current build was not made from the configured inputs (image, packages, commands, sizing): "+
				"this apply rebuilds it instead of adopting it.")
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...) // so apply does what was planned
		return false
	}
	return true
}

// checkBuildTimeout refuses at plan time a create or update timeout the backend's server would
// cut short (an OpenSandbox builder sandbox lives at most max_sandbox_timeout_seconds), instead
// of failing that build at apply.
func checkBuildTimeout(ctx context.Context, b builders.Builder, creating bool, t timeouts.Value, resp *resource.ModifyPlanResponse) {
	checker, ok := b.(builders.BuildTimeoutChecker)
	if !ok {
		return
	}
	budget, diags := t.Update(ctx, mustDuration(defaultUpdateTimeout))
	if creating {
		budget, diags = t.Create(ctx, mustDuration(defaultCreateTimeout))
	}
	if diags.HasError() || budget <= 0 {
		return // validateTimeouts reports it
	}
	if err := checker.CheckBuildTimeout(budget.Round(time.Second)); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeouts"), "Build timeout longer than the server allows", err.Error())
	}
}
