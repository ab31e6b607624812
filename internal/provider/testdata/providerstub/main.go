// Command providerstub stands in for a community provider (536tech/e2b, jwmoss/daytona) in the tests
// that move its resources to sandbox_template: the CLI needs every provider a state names to be
// installed, yet a move asks nothing of the source provider (the target's MoveResourceState reads
// the old state). It serves an empty provider, named at build time (-ldflags -X main.address=...
// -X main.typeName=...); the tests install it with a dev override (installProviderStub).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var address, typeName string // set by the build

type stub struct{}

func (stub) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = typeName
}
func (stub) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse)          {}
func (stub) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}
func (stub) Resources(context.Context) []func() resource.Resource                              { return nil }
func (stub) DataSources(context.Context) []func() datasource.DataSource                        { return nil }

func main() {
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return stub{} },
		providerserver.ServeOpts{Address: address}); err != nil {
		log.Fatal(err)
	}
}
