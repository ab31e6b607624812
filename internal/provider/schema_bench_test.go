package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// BenchmarkProviderSchema is the in-process part of the provider's start-up cost: what answering
// Terraform's first call, GetProviderSchema, takes without process start or gRPC (internal/bench
// times `terraform providers schema -json` for the whole thing).
//
//	go test -run '^$' -bench . ./internal/provider/
func BenchmarkProviderSchema(b *testing.B) {
	// cold: a new provider and server each time, as each provider process starts; the framework
	// builds every schema on this first call.
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			getProviderSchema(b, newBenchServer(b))
		}
	})
	// warm: the same server again, as Terraform asks a running provider more than once.
	b.Run("warm", func(b *testing.B) {
		server := newBenchServer(b)
		getProviderSchema(b, server)
		b.ReportAllocs()
		for b.Loop() {
			getProviderSchema(b, server)
		}
	})
}

func newBenchServer(b *testing.B) tfprotov6.ProviderServer {
	server, err := providerserver.NewProtocol6WithError(New("bench")())()
	if err != nil {
		b.Fatal(err)
	}
	return server
}

func getProviderSchema(b *testing.B, server tfprotov6.ProviderServer) {
	resp, err := server.GetProviderSchema(b.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.Fatalf("GetProviderSchema: %s: %s", d.Summary, d.Detail)
		}
	}
	if resp.ResourceSchemas["sandbox_template"] == nil {
		b.Fatalf("no sandbox_template schema in %v", resp.ResourceSchemas)
	}
}
