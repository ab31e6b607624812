// Command daytonastub stands in for the community Daytona provider (jwmoss/daytona) in the tests
// that move its daytona_snapshot to sandbox_template: the CLI needs every provider a state names
// to be installed, yet a move asks nothing of the source provider (the target's
// MoveResourceState reads the old state). It serves an empty provider; the tests install it with
// a dev override.
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

type stub struct{}

func (stub) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "daytona"
}
func (stub) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse)          {}
func (stub) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}
func (stub) Resources(context.Context) []func() resource.Resource                              { return nil }
func (stub) DataSources(context.Context) []func() datasource.DataSource                        { return nil }

func main() {
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return stub{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/jwmoss/daytona"}); err != nil {
		log.Fatal(err)
	}
}
