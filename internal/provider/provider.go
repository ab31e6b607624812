// Package provider is the Terraform layer: schemas, models and CRUD over the builder core.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/sandboxtf/sandbox"

var (
	_ provider.Provider                  = (*sandboxProvider)(nil)
	_ provider.ProviderWithListResources = (*sandboxProvider)(nil)
	_ provider.ProviderWithActions       = (*sandboxProvider)(nil)
)

type sandboxProvider struct {
	version string
}

// New returns the provider factory providerserver.Serve expects.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &sandboxProvider{version: version} }
}

func (p *sandboxProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sandbox"
	resp.Version = p.version
}

func (p *sandboxProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerSchema()
}

func (p *sandboxProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	// The first thing to check in a bug report's TF_LOG output: which build of the provider ran.
	tflog.Info(ctx, "sandbox provider v"+p.version, map[string]any{"version": p.version})
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	requestTimeout, err := parseRequestTimeout(cfg.RequestTimeout)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("request_timeout"), "Invalid request_timeout", err.Error())
		return
	}
	backends := newBackends(cfg, p.version)
	backends.requestTimeout = requestTimeout
	resp.ResourceData = backends
	resp.DataSourceData = backends
	resp.ListResourceData = backends
	resp.ActionData = backends
}

func (p *sandboxProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newTemplateResource}
}

// ListResources serve `terraform query` (Terraform >= 1.14).
func (p *sandboxProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{newTemplateListResource}
}

// Actions are invoked with `terraform apply -invoke` or an action_trigger (Terraform >= 1.14).
func (p *sandboxProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{newTemplateRebuildAction}
}

func (p *sandboxProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newTemplateDataSource}
}
