package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// A template's own tags (its tags and candidate attributes), kept where they belong without a
// build: an update that changes only them retags the current build, and a refresh forgets those
// moved elsewhere so the next plan points them back.

// retag gives the build an update keeps what a change of tags or candidate asks of it, without
// building: the tags added since the last apply and, when candidate was turned off, the plain
// name's tag (the build goes live). Removed tags stay on the builds that had them. It reports
// whether the tags are as planned; when they are not, the error says why.
func (r *templateResource) retag(ctx context.Context, plan, state templateModel, diags *diag.Diagnostics) bool {
	descriptor, err := backends.Named(plan.Backend.ValueString())
	if err != nil || descriptor.Tags == nil || state.BuildID.ValueString() == "" {
		return true
	}
	var planned, recorded builders.TemplateSpec
	diags.Append(plan.tagSpec(ctx, &planned)...)
	diags.Append(state.tagSpec(ctx, &recorded)...)
	added := slices.DeleteFunc(planned.Tags, func(tag string) bool { return slices.Contains(recorded.Tags, tag) })
	if recorded.Candidate && !planned.Candidate {
		added = append(added, descriptor.Tags.Live)
	}
	if len(added) == 0 || diags.HasError() {
		return !diags.HasError()
	}
	tagger, err := r.backends.tagger(ctx, plan.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return false
	}
	if _, err := tagger.MoveTags(ctx, plan.TemplateID.ValueString(), state.BuildID.ValueString(), added); err != nil {
		diags.AddAttributeError(path.Root(builders.FieldTags), "Could not tag the current build",
			fmt.Sprintf("Tagging build %s of template %q with %v: %s", state.BuildID.ValueString(), plan.TemplateID.ValueString(), added, err))
		return false
	}
	return true
}

// forgetMovedTags takes the tags that no longer start the recorded build (moved: the build each
// starts now, "" when removed) out of the record, so that the next plan assigns them to it again
// (retag: no build), and warns of each, naming where it went: another configuration managing the
// same tag moves it back on each of its applies, and each of this one's warns again.
func forgetMovedTags(ctx context.Context, state *templateModel, moved map[string]string) diag.Diagnostics {
	if len(moved) == 0 {
		return nil
	}
	var recorded []string
	diags := state.Tags.ElementsAs(ctx, &recorded, false)
	kept := slices.DeleteFunc(recorded, func(tag string) bool { _, gone := moved[tag]; return gone })
	tags, setDiags := types.SetValueFrom(ctx, types.StringType, kept)
	diags.Append(setDiags...)
	state.Tags = tags
	for _, tag := range slices.Sorted(maps.Keys(moved)) {
		now := "no longer exists"
		if moved[tag] != "" {
			now = "starts build " + moved[tag]
		}
		diags.AddAttributeWarning(path.Root(builders.FieldTags), "Tag moved outside this configuration",
			fmt.Sprintf("Tag %q of template %q %s, not build %s that this resource records: another configuration (a "+
				"sandbox_template_tag of the same name, or a sandbox_template with this tag in another directory) or a hand "+
				"edit moved it. The next apply points it back at build %s, without building. When another configuration "+
				"manages this tag too, each apply of either moves it back: let only one of them manage it.",
				tag, state.TemplateID.ValueString(), now, state.BuildID.ValueString(), state.BuildID.ValueString()))
	}
	return diags
}
