package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// checkServed tells whether the template is usable. Where the backend tells builds apart, it
// also keeps build_id honest: a resource that records none yet (imported, or saved by an earlier
// release) records the build served now; one whose build_id is no longer served notes the build that
// is in private state: another configuration or a manual build replaced it, so state no longer
// says what sandboxes start from, and the next plan rebuilds it (ModifyPlan). One request while
// build_id is served.
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
	case recorded == "", served != recorded && madeFromRecordedInputs(ctx, b, state, served):
		// Nothing recorded yet, or another run made a build of the same inputs (a second pipeline
		// of this configuration, a forced rebuild): state still says what sandboxes start from.
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("build_id"), served)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("build_ref"), buildRefValue(state.Backend, state.TemplateID, served))...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateSuperseded, nil)...)
		return true, nil
	}
	var superseded []byte // cleared when the recorded build is served again
	if served != recorded {
		tflog.Warn(ctx, "sandbox template serves a build this resource did not make", map[string]any{
			"template_id": state.TemplateID.ValueString(), "build_id": recorded, "served": served})
		superseded, _ = json.Marshal(served) // a string always encodes
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateSuperseded, superseded)...)
	return true, nil
}

// supersededBy returns the build a refresh found served instead of build_id, "" when none.
func supersededBy(ctx context.Context, private privateReader) string {
	raw, _ := private.GetKey(ctx, privateSuperseded)
	var served string
	_ = json.Unmarshal(raw, &served) // empty or foreign data: none
	return served
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
