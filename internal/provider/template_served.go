package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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
	case recorded == "":
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("build_id"), served)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("build_ref"), buildRefValue(state.Backend, state.TemplateID, served))...)
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
