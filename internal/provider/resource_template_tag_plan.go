package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

func liveTagWarning(descriptor *builders.Backend, templateID string) string {
	return fmt.Sprintf("Tag %q is what %q alone starts: moving it changes what every consumer of the plain name gets. Build the "+
		"template with candidate = true, or its refresh takes the moved tag for a replaced build and rebuilds. %s never removes "+
		"this tag: destroying the resource only forgets it.", descriptor.Tags.Live, templateID, descriptor.Title)
}

// planBuildID plans the build the tag will point at: the one target resolves to now.
func (r *templateTagResource) planBuildID(ctx context.Context, plan *templateTagModel, state templateTagModel, creating bool, resp *resource.ModifyPlanResponse) {
	tagger, err := r.backends.tagger(ctx, plan.Backend.ValueString())
	if err != nil {
		if !knownLater(err) {
			resp.Diagnostics.Append(notConfigured(err))
		}
		return
	}
	resolved, err := tagger.Resolve(ctx, plan.TemplateID.ValueString(), plan.Target.ValueString())
	switch {
	case errors.Is(err, builders.ErrNoReadyTarget): // the move would fail at apply: say so now
		resp.Diagnostics.AddAttributeError(path.Root("target"), "Invalid target", err.Error()+".")
		return
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("target"), "Could not resolve the target", err.Error())
		return
	}
	pointsAt, target := state.BuildID.ValueString(), plan.Target.ValueString()
	sameTarget := !creating && plan.Target.Equal(state.Target)
	switch {
	case !creating && resolved == pointsAt, sameTarget && resolved == "": // in place, or nothing new to tell
		plan.BuildID = state.BuildID
		return
	case resolved == target: // a build id names itself
		plan.BuildID = types.StringValue(resolved)
	}
	if sameTarget {
		resp.Diagnostics.AddAttributeWarning(path.Root("build_id"), "Tag moved",
			fmt.Sprintf("Tag %s points at build %s, not at the build target %q resolves to (%s): it was moved outside Terraform, "+
				"or the target moved. This apply points it at %s.", plan.ID.ValueString(), pointsAt, target, resolved, resolved))
	}
}

// known tells whether a configured value is known and set.
func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
