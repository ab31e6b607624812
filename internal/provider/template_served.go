package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// checkServed tells whether the template is usable. Where the backend tells builds apart, it
// also keeps the record honest: a resource that records no build yet (imported, or saved by an
// earlier release) records the build served now, as does one whose template serves another build of
// the recorded inputs (a second pipeline of this configuration). One whose template serves a build
// of other inputs is recorded SUPERSEDED: another configuration or a manual build replaced it, so
// the state no longer claims what sandboxes do not start from, and the next plan rebuilds it
// (ModifyPlan). One request while build_id is served.
func (r *templateResource) checkServed(ctx context.Context, b builders.Builder, state templateModel, lc lifecycle, resp *resource.ReadResponse) (bool, error) {
	checker, ok := b.(builders.ServingChecker)
	if !ok || lc.unconfirmed() { // an unfinished create's build is not ours to record yet
		return b.IsUsable(ctx, state.TemplateID.ValueString())
	}
	recorded := state.BuildID.ValueString()
	served, err := checker.Serving(ctx, state.TemplateID.ValueString(), state.Candidate.ValueBool(), recorded)
	switch {
	case err != nil || served == "":
		return false, err
	case served == recorded:
		return true, nil
	case recorded == "", madeFromRecordedInputs(ctx, b, state, served):
		state.BuildID, state.BuildRef = types.StringValue(served), buildRefValue(state.Backend, state.TemplateID, served)
	case lc == lifecycleSuperseded:
		return true, nil // already recorded
	default:
		tflog.Warn(ctx, "sandbox template serves a build this resource did not make", map[string]any{
			"template_id": state.TemplateID.ValueString(), "build_id": recorded, "served": served})
		state.Status = types.StringValue(statusSuperseded)
		state.Detail = types.StringValue(fmt.Sprintf("it serves build %s, not build %s that this resource made: another "+
			"configuration or a manual build replaced it; the next apply rebuilds it from this configuration", served, recorded))
	}
	resp.Diagnostics.Append(writeModel(ctx, state, &resp.State.Raw)...)
	return true, nil
}

// madeFromRecordedInputs tells whether the template serves a build (served, or any when "") that the
// backend knows was made from the inputs state records: then adopting it changes nothing sandboxes
// start from. Asked only when the served build changed, so a refresh costs more requests only then.
func madeFromRecordedInputs(ctx context.Context, b builders.Builder, state templateModel, served string) bool {
	checker, ok := b.(builders.InputsChecker)
	if !ok {
		return false
	}
	spec, diags := recordedSpec(ctx, state)
	if diags.HasError() {
		return false
	}
	verdict, servedNow, err := checker.BuiltFrom(ctx, spec)
	return err == nil && verdict == builders.InputsMatch && servedNow != "" && (served == "" || servedNow == served)
}

// recordedSpec is the spec state records: what its build was made from, the image pinned to the
// digest it was built from. Credentials are no build input, and write-only ones are not in state.
func recordedSpec(ctx context.Context, state templateModel) (builders.TemplateSpec, diag.Diagnostics) {
	state.RegistryAuth = types.ObjectNull(state.RegistryAuth.AttributeTypes(ctx))
	spec, diags := state.spec(ctx, state)
	spec.Image = buildImage(spec.Image, state.ImageDigest)
	return spec, diags
}
