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
// (ModifyPlan). Of a built record's own tags, those that no longer start its build leave the record
// (forgetMovedTags), so the next plan points them back. One request while build_id is served and
// its tags start it.
func (r *templateResource) checkServed(ctx context.Context, b builders.Builder, state templateModel, lc lifecycle, resp *resource.ReadResponse) (bool, error) {
	checker, ok := b.(builders.ServingChecker)
	if !ok || lc.unconfirmed() { // an unfinished create's build is not ours to record yet
		return b.IsUsable(ctx, state.TemplateID.ValueString())
	}
	recorded := state.BuildID.ValueString()
	served, moved, err := serving(ctx, checker, state, lc)
	switch {
	case err != nil || served == "":
		return false, err
	case served == recorded && lc == lifecycleDormant: // woken outside Terraform: nothing left to activate
		state.Status = types.StringValue(string(builders.StatusSkipped))
		state.Detail = types.StringValue("build " + served + " was inactive and is active again: activated outside Terraform")
	case served == recorded:
		if len(moved) == 0 {
			return true, nil // nothing to record
		}
	case recorded == "", madeFromRecordedInputs(ctx, b, state, served):
		state.BuildID, state.BuildRef = types.StringValue(served), buildRefValue(state.Backend, state.TemplateID, served)
		if refNamesBuild(state.Backend) {
			state.TemplateRef = state.BuildRef // consumers follow it to the build served now
		}
	case lc == lifecycleSuperseded:
		return true, nil // already recorded
	default:
		tflog.Warn(ctx, "sandbox template serves a build this resource did not make", map[string]any{
			"template_id": state.TemplateID.ValueString(), "build_id": recorded, "served": served})
		state.Status = types.StringValue(statusSuperseded)
		state.Detail = types.StringValue(fmt.Sprintf("it serves build %s, not build %s that this resource made: another "+
			"configuration or a manual build replaced it; the next apply rebuilds it from this configuration", served, recorded))
		moved = nil // the rebuild gives the tags to its build
	}
	resp.Diagnostics.Append(forgetMovedTags(ctx, &state, moved)...)
	resp.Diagnostics.Append(writeModel(ctx, state, &resp.State.Raw)...)
	return true, nil
}

// serving asks which build the resource's consumers start and, for a built record with tags on a
// backend that can tell, which of its tags moved. A record whose build failed, or that another
// build superseded, plans a build, which gives the tags to it: its tags are not checked.
func serving(ctx context.Context, checker builders.ServingChecker, state templateModel, lc lifecycle) (string, map[string]string, error) {
	templateID, candidate, recorded := state.TemplateID.ValueString(), state.Candidate.ValueBool(), state.BuildID.ValueString()
	var spec builders.TemplateSpec
	tagChecker, ok := checker.(builders.TagServingChecker)
	if diags := state.tagSpec(ctx, &spec); !ok || lc != lifecycleBuilt || len(spec.Tags) == 0 || diags.HasError() {
		served, err := checker.Serving(ctx, templateID, candidate, recorded)
		return served, nil, err
	}
	return tagChecker.ServingAndTags(ctx, templateID, candidate, recorded, spec.Tags)
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
