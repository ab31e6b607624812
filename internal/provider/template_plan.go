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
	if !req.Plan.Raw.Equal(req.State.Raw) || supersededBy(ctx, req.Private) != "" {
		return false
	}
	var status types.String
	req.State.GetAttribute(ctx, path.Root("status"), &status)
	return status.ValueString() != string(builders.StatusFailed)
}

// ModifyPlan fails the plan when the chosen backend is not configured (a setting Terraform will
// know only at apply counts as configured), and keeps the build outcome known when an update will
// not rebuild, so such plans show only what really changes.
func (r *templateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.backends == nil {
		return // destroy, or provider not configured yet
	}
	defer r.planImageDigest(ctx, req, resp) // last: it adjusts the plan the rest made
	if unchanged(ctx, req) {
		return
	}
	// Two attributes decide a create's checks: the whole model is decoded only for an update
	// (BenchmarkTemplatePlanRPCs: 8% fewer allocations per planned create).
	var backend, templateID types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("backend"), &backend)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("template_id"), &templateID)...)
	if resp.Diagnostics.HasError() || backend.IsUnknown() {
		return
	}
	builder, err := r.backends.Builder(ctx, backend.ValueString())
	if err != nil && !knownLater(err) {
		resp.Diagnostics.AddAttributeError(path.Root("backend"), "Backend not configured", err.Error())
		return
	}
	if err == nil {
		checkBuildTimeout(ctx, builder, req.State.Raw.IsNull(), req, resp)
	}
	if req.State.Raw.IsNull() {
		if descriptor, err := backends.Named(backend.ValueString()); err == nil && descriptor.Builds() && !templateID.IsUnknown() {
			ref := builders.TemplateRef{Provider: descriptor.Name, Value: templateID.ValueString()}
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("template_ref"), templateRefValue(&ref))...)
		}
		return
	}
	var plan, state templateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	lc, diags := lifecycleOf(ctx, state, req.Private)
	resp.Diagnostics.Append(diags...)
	keep := keepsBuild(lc, plan, state)
	if resp.Diagnostics.HasError() {
		return
	}
	if keep && buildInputsChanged(plan, state) && builder != nil { // adopting an import
		keep = adoptsImport(ctx, builder, plan, resp)
	}
	if lc == lifecycleSuperseded {
		resp.Diagnostics.AddAttributeWarning(path.Root("build_id"), "Template serves another build",
			fmt.Sprintf("Template %q now serves build %s, not build %s that this resource made: another configuration or a "+
				"manual build replaced it. This apply rebuilds it from this configuration.",
				templateID.ValueString(), supersededBy(ctx, req.Private), state.BuildID.ValueString()))
	}
	switch {
	case keep:
		plan.copyResult(state)
		resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
	default: // a rebuild: the framework plans its results unknown only when the configuration changed,
		planRebuild(ctx, resp) // not when only the served build or the files of file steps did
	}
}
