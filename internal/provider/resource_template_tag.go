package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
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

func (r *templateTagResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
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
