package provider

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ list.ListResourceWithConfigure = (*templateTagListResource)(nil)

// templateTagListResource lists a template's tags for `terraform query` (Terraform >= 1.14), each
// with the build it points at; the tags the provider gives builds itself are left out.
type templateTagListResource struct {
	backends *backendSet
}

func newTemplateTagListResource() list.ListResource { return &templateTagListResource{} }

type templateTagListConfig struct {
	Backend    types.String `tfsdk:"backend"`
	TemplateID types.String `tfsdk:"template_id"`
}

func (r *templateTagListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template_tag"
}

func (r *templateTagListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "The tags of one sandbox template, to find and import with `terraform query`, each pointing at the " +
			"build it names (the provider's own `inputs-*` tags are left out).",
		Attributes: map[string]listschema.Attribute{
			"backend": listschema.StringAttribute{Required: true,
				MarkdownDescription: "Backend: " + backtickList(taggingBackends()) + ".",
				Validators:          []validator.String{backendOneOf(taggingBackends())}},
			"template_id": listschema.StringAttribute{Required: true, MarkdownDescription: "The template whose tags to list."},
		},
	}
}

func (r *templateTagListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *templateTagListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg templateTagListConfig
	diags := req.Config.Get(ctx, &cfg)
	var found []templateTagModel
	if !diags.HasError() {
		found, diags = r.tags(ctx, cfg)
	}
	streamResults(ctx, req, stream, found, diags, func(result *list.ListResult, m templateTagModel) {
		result.DisplayName = m.ID.ValueString()
		result.Diagnostics.Append(setTagIdentity(ctx, result.Identity, m)...)
		if req.IncludeResource {
			result.Diagnostics.Append(result.Resource.Set(ctx, m)...)
		}
	})
}

// tags lists the template's tags as the resources that manage them would record them, sorted.
func (r *templateTagListResource) tags(ctx context.Context, cfg templateTagListConfig) ([]templateTagModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r.backends == nil {
		diags.AddError("Provider not configured", "The sandbox provider was not configured before listing tags; please report this bug.")
		return nil, diags
	}
	descriptor := templateTagModel{Backend: cfg.Backend}.tagging()
	if descriptor == nil {
		return nil, diags // the backend validator reports it
	}
	// template_id goes into the request path: ".." would list GET /tags
	if err := descriptor.ValidateTemplateID(cfg.TemplateID.ValueString()).Err(); err != nil {
		diags.AddAttributeError(path.Root("template_id"), "Invalid template_id", err.Error()+".")
		return nil, diags
	}
	tagger, err := r.backends.tagger(ctx, cfg.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return nil, diags
	}
	pointers, err := tagger.Tags(ctx, cfg.TemplateID.ValueString())
	if err != nil {
		diags.AddError("Could not list sandbox template tags", err.Error())
		return nil, diags
	}
	var found []templateTagModel
	for _, tag := range slices.Sorted(maps.Keys(pointers)) {
		// the provider's own tags, and names from the answer that no configuration could hold (they
		// would reach identities, generated configuration and later requests)
		if descriptor.Tags.TagProblem(tag) != "" || descriptor.Tags.TargetProblem(pointers[tag]) != "" {
			continue
		}
		m := templateTagModel{Backend: cfg.Backend, TemplateID: cfg.TemplateID, Tag: types.StringValue(tag),
			Target: types.StringValue(pointers[tag]), BuildID: types.StringValue(pointers[tag])}
		m.setNames(descriptor)
		found = append(found, m)
	}
	return found, diags
}
