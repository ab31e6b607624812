// Command benchfloor serves the benchmark's two floors, framework resources with no API behind
// them. floor_thing is the smallest there is: an input and a computed id. `make bench` applies N of
// them next to N sandbox_template and N terraform_data, because terraform_data is built into the
// CLI: it pays no plugin process, gRPC round trips or framework work. What floor_thing costs over
// terraform_data is the floor for any framework provider. floor_template has sandbox_template's
// schema and none of its logic (schemafloor.Of): what it costs over floor_thing is what
// the framework and Terraform pay for that schema; what sandbox_template costs over floor_template
// is this provider's own share.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/pluginlog"
	sandboxprovider "github.com/sandboxtf/terraform-provider-sandbox/internal/provider"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/schemafloor"
)

const address = "registry.terraform.io/sandboxtf/floor"

func main() {
	pluginlog.SilenceDiscarded(address) // as the sandbox provider does: a floor, not a strawman
	err := providerserver.Serve(context.Background(), func() provider.Provider { return floorProvider{} },
		providerserver.ServeOpts{Address: address})
	if err != nil {
		log.Fatal(err)
	}
}

type floorProvider struct{}

func (floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "floor"
}

func (floorProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (floorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return thing{} }, schemafloor.Of(sandboxprovider.New("floor")(), "sandbox_template")}
}

func (floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type thing struct{}

type thingModel struct {
	ID    types.String `tfsdk:"id"`
	Input types.String `tfsdk:"input"`
}

func (thing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input": schema.StringAttribute{Required: true},
	}}
}

func (thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = m.Input
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// Read and Delete have nothing remote to look at; Update takes the plan as it is.
func (thing) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (thing) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
