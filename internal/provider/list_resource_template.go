package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var _ list.ListResourceWithConfigure = (*templateListResource)(nil)

// listingBackends are the backends whose builders can list their templates.
func listingBackends() []*builders.Backend {
	return backends.Where(func(b *builders.Backend) bool { return b.Lists })
}

// templateListResource lists existing templates for `terraform query` (Terraform >= 1.14): the
// team's E2B templates or the names of OpenSandbox's Ready snapshots.
type templateListResource struct {
	backends *backendSet
}

func newTemplateListResource() list.ListResource { return &templateListResource{} }

type templateListConfig struct {
	Backend types.String `tfsdk:"backend"`
}

func (r *templateListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Existing sandbox templates of one backend, to find and import with `terraform query`: " +
			templateNames(listingBackends()) + " of each usable template.",
		Attributes: map[string]listschema.Attribute{
			"backend": listschema.StringAttribute{Required: true,
				MarkdownDescription: "Backend to list: " + backtickList(listingBackends()) + ".",
				Validators:          []validator.String{backendOneOf(listingBackends())}},
		},
	}
}

func (r *templateListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *templateListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg templateListConfig
	diags := req.Config.Get(ctx, &cfg)
	var names []string
	if !diags.HasError() {
		names, diags = r.names(ctx, cfg)
	}
	streamResults(ctx, req, stream, names, diags, func(result *list.ListResult, name string) {
		result.DisplayName = name
		result.Diagnostics.Append(setIdentity(ctx, result.Identity, cfg.Backend, types.StringValue(name))...)
		if req.IncludeResource {
			result.Diagnostics.Append(setImportedAttributes(ctx, result.Resource, cfg.Backend.ValueString(), name)...)
		}
	})
}

func (r *templateListResource) names(ctx context.Context, cfg templateListConfig) ([]string, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r.backends == nil {
		diags.AddError("Provider not configured", "The sandbox provider was not configured before listing templates; please report this bug.")
		return nil, diags
	}
	builder, err := r.backends.Builder(ctx, cfg.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return nil, diags
	}
	lister, ok := builder.(builders.Lister)
	if !ok {
		diags.AddAttributeError(path.Root("backend"), "Backend cannot list templates",
			fmt.Sprintf("The %s backend cannot list its templates.", cfg.Backend.ValueString()))
		return nil, diags
	}
	names, err := lister.ListTemplates(ctx)
	if err != nil {
		diags.AddError("Could not list sandbox templates", err.Error())
	}
	return names, diags
}
