package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var _ datasource.DataSourceWithConfigure = (*templateDataSource)(nil)

// templateDataSource looks up a template someone else built and returns its template_ref.
type templateDataSource struct {
	backends *backendSet
}

type templateDataSourceModel struct {
	ID          types.String `tfsdk:"id"`
	Backend     types.String `tfsdk:"backend"`
	TemplateID  types.String `tfsdk:"template_id"`
	TemplateRef types.Object `tfsdk:"template_ref"`
}

func newTemplateDataSource() datasource.DataSource { return &templateDataSource{} }

func (d *templateDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (d *templateDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks up an existing, usable sandbox template and returns its `template_ref`. " +
			"Fails when the template does not exist or is not usable yet.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Same as `template_id`."},
			"backend": schema.StringAttribute{Required: true, MarkdownDescription: "Sandbox backend: " + backtickList(backends.All) + ".",
				Validators: []validator.String{backendOneOf(backends.All)}},
			"template_id": schema.StringAttribute{Required: true,
				MarkdownDescription: "Template name: " + templateNames(backends.All) + "."},
			"template_ref": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "What consumers pass to their sandbox backend.",
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Computed: true, MarkdownDescription: "Backend the value belongs to."},
					"value": schema.StringAttribute{Computed: true, MarkdownDescription: "Template name: " + templateNames(backends.All) +
						"; on " + namingBuilds() + ", the name of the build sandboxes start from now."},
				}},
		},
	}
}

func (d *templateDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

func (d *templateDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m templateDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	backend := m.Backend.ValueString()
	if descriptor, err := backends.Named(backend); err == nil {
		if err := descriptor.ValidateTemplateID(m.TemplateID.ValueString()).Err(); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("template_id"), "Invalid template_id", err.Error())
			return
		}
	}
	builder, err := d.backends.Builder(ctx, backend)
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	ctx, cancel := d.backends.readContext(ctx)
	defer cancel()
	ref, err := servedRef(ctx, builder, m.TemplateID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not look up sandbox template", d.backends.readError(ctx, backend, m.TemplateID.ValueString(), err).Error())
		return
	}
	if ref == nil {
		resp.Diagnostics.AddAttributeError(path.Root("template_id"), "Sandbox template not found",
			fmt.Sprintf("%s has no usable template %q.", backend, m.TemplateID.ValueString()))
		return
	}
	m.ID = m.TemplateID
	m.TemplateRef = templateRefValue(ref)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}
