// Command terraform-provider-sandbox serves the sandbox provider to Terraform and OpenTofu.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/pluginlog"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/provider"
)

// version is set by goreleaser (-X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug { // a debugger's console shows the provider's logs directly: keep them there
		pluginlog.SilenceDiscarded(provider.Address)
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: provider.Address,
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
