package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// templateTagModel is a sandbox_template_tag: one tag of a template, pointing at one build.
type templateTagModel struct {
	ID          types.String `tfsdk:"id"`
	Backend     types.String `tfsdk:"backend"`
	TemplateID  types.String `tfsdk:"template_id"`
	Tag         types.String `tfsdk:"tag"`
	Target      types.String `tfsdk:"target"`
	BuildID     types.String `tfsdk:"build_id"`
	TemplateRef types.Object `tfsdk:"template_ref"`
}

func templateTagSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "A tag of a sandbox template" + onlyTagging() + ": a name consumers start one build by " +
			"(`Sandbox.create(\"<template_id>:<tag>\")` on E2B), moved from build to build without building. Promotion is a " +
			"change of `target`, rollback the revert of that change; destroying it removes the tag, never a build. A " +
			"`sandbox_template` with `candidate = true` builds what it promotes.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<template_id>:<tag>`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"backend": schema.StringAttribute{Required: true,
				MarkdownDescription: "Sandbox backend: " + backtickList(taggingBackends()) + " (the others have no build tags).",
				Validators:          []validator.String{backendOneOf(backends.All)}, // a tagless backend gets its own error: ValidateConfig
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"template_id": schema.StringAttribute{Required: true,
				MarkdownDescription: "The template: " + templateNames(taggingBackends()) + ". In the configuration that builds the " +
					"template, reference its `template_id` (`sandbox_template.x.template_id`), so the tag moves after the build it " +
					"names exists. Changing it replaces the resource.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"tag": schema.StringAttribute{Required: true,
				MarkdownDescription: "The tag, e.g. `prod`: lower-case letters, digits, `.`, `-` and `_`, not a UUID, not one of the " +
					"provider's own `inputs-*`. The plain name's tag (" + liveTags() + ") can be managed too, which changes what " +
					"the plain template name starts; E2B never removes it, so destroying that resource only forgets it. Changing " +
					"it replaces the resource.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"target": schema.StringAttribute{Required: true,
				MarkdownDescription: "What the tag points at: a build id (`sandbox_template.x.build_id`, which names exactly one " +
					"build) or another tag of the template (`staging`, resolved when the plan is made and again on apply). It " +
					"must name a ready build. A refresh shows a tag moved outside Terraform, and the next apply points it back.",
			},
			"build_id": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The build the tag points at. Known at plan time when `target` is a build id, or a tag the " +
					"backend can resolve."},
			"template_ref": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "What consumers pass to their sandbox backend: `value` is `<template_id>:<tag>`.",
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Computed: true, MarkdownDescription: "Backend the value belongs to."},
					"value":    schema.StringAttribute{Computed: true, MarkdownDescription: "`<template_id>:<tag>`."},
				},
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()}},
		},
	}
}

// setNames sets what backend, template_id and tag name: the id and template_ref.
func (m *templateTagModel) setNames(descriptor *builders.Backend) {
	ref := descriptor.Tags.Ref(m.TemplateID.ValueString(), m.Tag.ValueString())
	m.ID = types.StringValue(ref)
	m.TemplateRef = templateRefValue(&builders.TemplateRef{Provider: descriptor.Name, Value: ref})
}

// tagging returns the backend of m when it has tags, nil otherwise (or while it is unknown).
func (m templateTagModel) tagging() *builders.Backend {
	descriptor, err := backends.Named(m.Backend.ValueString())
	if err != nil || descriptor.Tags == nil {
		return nil
	}
	return descriptor
}

// live tells whether the tag is the one the plain template name starts, which the backend never removes.
func (m templateTagModel) live() bool {
	descriptor := m.tagging()
	return descriptor != nil && m.Tag.ValueString() == descriptor.Tags.Live
}
