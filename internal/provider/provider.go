// Package provider is the Terraform layer: schemas, models and CRUD over the builder core.
package provider

import (
	"context"
	"net/http"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	// registryTransport carries image_digest_check's registry requests; nil is the real network
	// (tests reach registries on made-up hosts through imagedigesttest.Sink).
	registryTransport http.RoundTripper
	// getenv reads the environment the settings fall back to, once, in Configure (os.Getenv; tests
	// give each provider an environment of its own, so they can run in parallel).
	getenv func(string) string
}

// New returns the provider factory providerserver.Serve expects.
func New(version string) func() provider.Provider { return newWithEnv(version, os.Getenv) }

func newWithEnv(version string, getenv func(string) string) func() provider.Provider {
	return func() provider.Provider { return &sandboxProvider{version: version, getenv: getenv} }
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
	var timeout types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("request_timeout"), &timeout)...)
	settings, diags := readSettings(ctx, req.Config, p.getenv)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	requestTimeout, err := parseRequestTimeout(timeout)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("request_timeout"), "Invalid request_timeout", err.Error())
		return
	}
	set := newBackendSet(settings, p.version, requestTimeout)
	set.dropFailedCreates = failedCreateCrashes(req.TerraformVersion)
	set.registryTransport = p.registryTransport
	resp.ResourceData = set
	resp.DataSourceData = set
	resp.ListResourceData = set
	resp.ActionData = set
}

func (p *sandboxProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newTemplateResource, newTemplateTagResource, newTemplateCheckResource}
}

// ListResources serve `terraform query` (Terraform >= 1.14).
func (p *sandboxProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{newTemplateListResource, newTemplateTagListResource}
}

// Actions are invoked with `terraform apply -invoke` or an action_trigger (Terraform >= 1.14).
func (p *sandboxProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{newTemplateRebuildAction}
}

func (p *sandboxProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newTemplateDataSource}
}
