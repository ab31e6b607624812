package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// buildInputsChanged tells whether a plan needs a rebuild. Credentials, keep_remotely, force_rebuild
// and timeouts are not build inputs: changing them alone makes no API call.
func buildInputsChanged(plan, state templateModel) bool {
	return !plan.Image.Equal(state.Image) ||
		!plan.Packages.Equal(state.Packages) ||
		!plan.StartCmd.Equal(state.StartCmd) ||
		!plan.ReadyCmd.Equal(state.ReadyCmd) ||
		!plan.CPUCount.Equal(state.CPUCount) ||
		!plan.MemoryMB.Equal(state.MemoryMB) ||
		!plan.BaseTemplate.Equal(state.BaseTemplate) ||
		!plan.Dockerfile.Equal(state.Dockerfile) ||
		!plan.RebuildTriggers.Equal(state.RebuildTriggers) ||
		stepsChanged(plan, state) ||
		digestMoved(plan.ImageDigest, state.ImageDigest)
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
	return status.ValueString() != string(builders.StatusFailed) && status.ValueString() != statusSuperseded
}

// ModifyPlan plans what the schema does not: id, template_ref, sandbox_entrypoint and the steps'
// outputs (files_hash, sandbox_env, sandbox_workdir, sandbox_user) where they are known, replacement when backend or template_id changes, and the build outcome: known (the
// state's) when an update will not rebuild, so such plans show only what really changes, unknown when
// it will. It fails the plan when the chosen backend is not configured (a setting Terraform will know
// only at apply counts as configured). It reads the plan once and sets it once: each GetAttribute and
// SetAttribute walks the schema (BenchmarkTemplatePlanRPCs).
func (r *templateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Plan.Raw, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.backends != nil && plan.ImageDigestCheck.ValueString() != digestCheckOff {
		defer r.planImageDigest(ctx, req, resp) // last: it adjusts the plan the rest made
	}
	if outputsMoved := plan.planStepsOutputs(); !outputsMoved && unchanged(ctx, req) {
		return
	}
	var state templateModel
	creating := req.State.Raw.IsNull()
	if creating {
		plan.filesHashFromBuild()
	} else {
		resp.Diagnostics.Append(readModel(ctx, req.State.Raw, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		for _, name := range []string{"backend", "template_id"} { // another backend or id is another template
			if !plan.attribute(name).Equal(state.attribute(name)) {
				resp.RequiresReplace.Append(path.Root(name))
			}
		}
		// The template keeps its id and reference through an update: a rebuild changes neither.
		plan.ID, plan.TemplateRef = state.ID, state.TemplateRef
	}
	if !plan.Backend.IsUnknown() && !plan.StartCmd.IsUnknown() {
		plan.SandboxEntrypoint = sandboxEntrypointValue(plan.Backend, plan.StartCmd) // else known at apply (setResult)
	}
	if plan.ImageDigestCheck.ValueString() == digestCheckOff {
		plan.ImageDigest = types.StringNull() // no check, no digest
	}
	if r.backends != nil {
		r.planBuild(ctx, req, creating, &plan, state, resp)
	}
	resp.Diagnostics.Append(writeModel(ctx, plan, &resp.Plan.Raw)...)
}

// planBuild checks the backend and decides what the build outcome plans as: the template_ref of a
// create; for an update, the state's outcome when it keeps the build, unknown when it rebuilds (the
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
		if descriptor, err := backends.Named(plan.Backend.ValueString()); err == nil && descriptor.Builds() && !plan.TemplateID.IsUnknown() {
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
