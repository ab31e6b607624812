package provider

import (
	"context"

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
		digestMoved(plan.ImageDigest, state.ImageDigest)
}

// keepsBuild tells whether an update keeps the current build: no build input changed, or the state
// comes from an import whose inputs the update only adopts.
func keepsBuild(lc lifecycle, plan, state templateModel) bool {
	return lc == lifecycleImported || !buildInputsChanged(plan, state)
}

// ModifyPlan plans what the schema does not: id, template_ref and sandbox_entrypoint where
// they are known, replacement when backend or template_id changes, and a known build outcome when
// an update will not rebuild, so such plans show only what really changes. It fails the plan when
// the chosen backend is not configured (a setting Terraform will know only at apply counts as
// configured). It reads the plan once and sets it once: each GetAttribute and SetAttribute walks
// the schema (BenchmarkTemplatePlanRPCs).
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
	if req.Plan.Raw.Equal(req.State.Raw) {
		return // nothing changes (a no-op plan of a refreshed resource): nothing to keep or check
	}
	var state templateModel
	creating := req.State.Raw.IsNull()
	if !creating {
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
// create, or the state's outcome for an update that keeps the build.
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
	if keep {
		plan.copyResult(state)
	}
}
