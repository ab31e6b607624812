package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var (
	_ resource.ResourceWithConfigure      = (*templateTagResource)(nil)
	_ resource.ResourceWithImportState    = (*templateTagResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*templateTagResource)(nil)
	_ resource.ResourceWithValidateConfig = (*templateTagResource)(nil)
	_ resource.ResourceWithIdentity       = (*templateTagResource)(nil)
)

// templateTagResource is sandbox_template_tag: create and update move the tag to the build target
// names, read shows where it points now, delete removes it. No build is ever made or removed.
type templateTagResource struct {
	backends *backendSet
}

func newTemplateTagResource() resource.Resource { return &templateTagResource{} }

func (r *templateTagResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template_tag"
}

func (r *templateTagResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = templateTagSchema()
}

func (r *templateTagResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"backend": identityschema.StringAttribute{RequiredForImport: true,
			Description: "Sandbox backend: " + strings.ReplaceAll(backtickList(taggingBackends()), "`", "") + "."},
		"template_id": identityschema.StringAttribute{RequiredForImport: true,
			Description: "The template: " + templateNames(taggingBackends()) + "."},
		"tag": identityschema.StringAttribute{RequiredForImport: true, Description: "The tag."},
	}}
}

func (r *templateTagResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

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

func (r *templateTagResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan templateTagModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !r.move(ctx, &plan, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(setTagIdentity(ctx, resp.Identity, plan)...)
}

// Read records where the tag points now (its newest assignment, what E2B's SDKs list): a tag moved
// outside Terraform shows as a changed build_id, which the next plan points back at target. A tag
// or template that is gone leaves state, so the next plan creates the tag again.
func (r *templateTagResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state templateTagModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tagger, err := r.backends.tagger(ctx, state.Backend.ValueString())
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	ctx, cancel := r.backends.readContext(ctx)
	defer cancel()
	tags, err := tagger.Tags(ctx, state.TemplateID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read sandbox template tag",
			r.backends.readError(ctx, state.Backend.ValueString(), state.TemplateID.ValueString(), err).Error())
		return
	}
	pointsAt := tags[state.Tag.ValueString()]
	if pointsAt == "" {
		tflog.Warn(ctx, "sandbox template tag is gone; removing it from state", map[string]any{"id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	state.BuildID = types.StringValue(pointsAt)
	if state.Target.IsNull() { // imported: the build it points at is the one target names
		state.Target = state.BuildID
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	resp.Diagnostics.Append(setTagIdentity(ctx, resp.Identity, state)...)
}

func (r *templateTagResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state templateTagModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !r.move(ctx, &plan, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...) // the tag did not move: the next plan tries again
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(setTagIdentity(ctx, resp.Identity, plan)...)
}

// Delete removes every assignment of the tag; the builds stay. The plain name's tag is only
// forgotten: the backend never removes it (ModifyPlan warned).
func (r *templateTagResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state templateTagModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || state.live() {
		return
	}
	tagger, err := r.backends.tagger(ctx, state.Backend.ValueString())
	if err == nil {
		err = tagger.RemoveTags(ctx, state.TemplateID.ValueString(), []string{state.Tag.ValueString()})
	}
	if err != nil {
		resp.Diagnostics.AddError("Could not remove sandbox template tag", err.Error())
	}
}

// ImportState takes "<template_id>:<tag>" (of backends.ImportDefault, E2B),
// "<backend>/<template_id>:<tag>", or an identity. The read that follows records where the tag
// points, and takes that build as target.
func (r *templateTagResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	if id == "" && req.Identity != nil && !req.Identity.Raw.IsNull() { // `terraform import x ""` sends a null identity
		var identity templateTagIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		id = identity.Backend.ValueString() + "/" + identity.TemplateID.ValueString() + ":" + identity.Tag.ValueString()
	}
	m, err := parseTagImportID(id)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("Expected \"<template_id>:<tag>\" or \"<backend>/<template_id>:<tag>\": %s", err))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	resp.Diagnostics.Append(setTagIdentity(ctx, resp.Identity, m)...)
}

// move points the tag at the build target names and records it.
func (r *templateTagResource) move(ctx context.Context, m *templateTagModel, diags *diag.Diagnostics) bool {
	tagger, err := r.backends.tagger(ctx, m.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return false
	}
	buildID, err := tagger.MoveTags(ctx, m.TemplateID.ValueString(), m.Target.ValueString(), []string{m.Tag.ValueString()})
	if err != nil {
		diags.AddAttributeError(path.Root("target"), "Could not move the tag",
			fmt.Sprintf("%s. The target must be a tag of template %q or a build id, naming a ready build.", err, m.TemplateID.ValueString()))
		return false
	}
	m.BuildID = types.StringValue(buildID)
	m.setNames(m.tagging())
	return true
}
