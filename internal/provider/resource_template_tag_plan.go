package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// ValidateConfig reports, at plan time and on the attribute at fault, a backend without tags and
// names the backend refuses; managing the plain name's tag is allowed, with a warning saying what
// that means.
func (r *templateTagResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg templateTagModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	descriptor, err := backends.Named(cfg.Backend.ValueString())
	if resp.Diagnostics.HasError() || cfg.Backend.IsUnknown() || err != nil {
		return // an unknown name is the backend validator's to report
	}
	if descriptor.Tags == nil {
		resp.Diagnostics.AddAttributeError(path.Root("backend"), "Backend has no build tags",
			builders.NoTags(descriptor)+". sandbox_template_tag works with "+backtickList(taggingBackends())+".")
		return
	}
	problems := map[string]string{}
	if known(cfg.TemplateID) {
		if err := descriptor.ValidateTemplateID(cfg.TemplateID.ValueString()).Err(); err != nil {
			problems["template_id"] = err.Error()
		}
	}
	if known(cfg.Tag) {
		if problem := descriptor.Tags.TagProblem(cfg.Tag.ValueString()); problem != "" {
			problems["tag"] = fmt.Sprintf("%q %s", cfg.Tag.ValueString(), problem)
		}
	}
	if known(cfg.Target) {
		if problem := descriptor.Tags.TargetProblem(cfg.Target.ValueString()); problem != "" {
			problems["target"] = fmt.Sprintf("%q %s", cfg.Target.ValueString(), problem)
		}
	}
	for attribute, problem := range problems {
		resp.Diagnostics.AddAttributeError(path.Root(attribute), "Invalid "+attribute, problem+".")
	}
	if cfg.live() {
		resp.Diagnostics.AddAttributeWarning(path.Root("tag"), "Managing the plain template name's tag",
			liveTagWarning(descriptor, cfg.TemplateID.ValueString()))
	}
}

func liveTagWarning(descriptor *builders.Backend, templateID string) string {
	return fmt.Sprintf("Tag %q is what %q alone starts: moving it changes what every consumer of the plain name gets. Build the "+
		"template with candidate = true, or its refresh takes the moved tag for a replaced build and rebuilds. %s never removes "+
		"this tag: destroying the resource only forgets it.", descriptor.Tags.Live, templateID, descriptor.Title)
}

// ModifyPlan sets what template_id and tag name, and plans build_id as the build target resolves
// to now: a change from what the tag points at (a promotion, a rollback, a move outside
// Terraform, a target tag that moved) plans an update that moves it, and nothing else. A target the
// backend cannot resolve before the move leaves build_id to the apply. Destroying the plain name's
// tag says that it stays.
func (r *templateTagResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.backends == nil {
		return // provider not configured yet
	}
	var plan, state templateTagModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if req.Plan.Raw.IsNull() {
		if state.live() {
			resp.Diagnostics.AddAttributeWarning(path.Root("tag"), "Tag kept", fmt.Sprintf("Destroying %s leaves the tag where it points: "+
				"%s never removes it.", state.ID.ValueString(), state.tagging().Title))
		}
		return
	}
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	descriptor := plan.tagging()
	if resp.Diagnostics.HasError() || descriptor == nil || !known(plan.TemplateID) || !known(plan.Tag) {
		return
	}
	plan.setNames(descriptor)
	plan.BuildID = types.StringUnknown()
	if known(plan.Target) {
		r.planBuildID(ctx, &plan, state, req.State.Raw.IsNull(), resp)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
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
