package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/schemafloor"
)

// BenchmarkTemplatePlanRPCs is the in-process cost of planning one new sandbox_template: the
// ValidateResourceConfig and PlanResourceChange calls Terraform makes for every instance in a plan,
// without process start or gRPC, and without API calls (planning a create makes none). It tracks the
// provider's part of the per-resource cost that internal/bench measures through the CLI.
//
//	go test -run '^$' -bench TemplatePlanRPCs ./internal/provider/
func BenchmarkTemplatePlanRPCs(b *testing.B) {
	// The builder is made at plan time, and needs a key.
	server, err := providerserver.NewProtocol6WithError(newWithEnv("bench", func(name string) string {
		return map[string]string{"E2B_API_KEY": "bench-api-key"}[name]
	})())()
	if err != nil {
		b.Fatal(err)
	}
	benchmarkPlanRPCs(b, server)
}

// BenchmarkSchemaFloorPlanRPCs is the same for a resource with sandbox_template's schema and no
// logic (schemafloor.New): what the framework costs for this schema, the floor of the one above.
func BenchmarkSchemaFloorPlanRPCs(b *testing.B) {
	server, err := providerserver.NewProtocol6WithError(schemaFloorProvider{})()
	if err != nil {
		b.Fatal(err)
	}
	benchmarkPlanRPCs(b, server)
}

func benchmarkPlanRPCs(b *testing.B, server tfprotov6.ProviderServer) {
	schemas, err := server.GetProviderSchema(b.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	providerConfig := dynamicValue(b, schemas.Provider, map[string]tftypes.Value{})
	configured, err := server.ConfigureProvider(b.Context(), &tfprotov6.ConfigureProviderRequest{Config: providerConfig})
	if err != nil {
		b.Fatal(err)
	}
	failOnErrors(b, "ConfigureProvider", configured.Diagnostics)
	resourceSchema := schemas.ResourceSchemas["sandbox_template"]
	config := dynamicValue(b, resourceSchema, map[string]tftypes.Value{
		"backend":     tftypes.NewValue(tftypes.String, "e2b"),
		"template_id": tftypes.NewValue(tftypes.String, "py"),
		"image":       tftypes.NewValue(tftypes.String, "python:3.12-slim"),
		"packages":    tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "numpy")}),
	})
	priorState := dynamicValue(b, resourceSchema, nil)

	b.ReportAllocs()
	for b.Loop() {
		validated, err := server.ValidateResourceConfig(b.Context(), &tfprotov6.ValidateResourceConfigRequest{TypeName: "sandbox_template", Config: config})
		if err != nil {
			b.Fatal(err)
		}
		failOnErrors(b, "ValidateResourceConfig", validated.Diagnostics)
		planned, err := server.PlanResourceChange(b.Context(), &tfprotov6.PlanResourceChangeRequest{TypeName: "sandbox_template",
			Config: config, ProposedNewState: config, PriorState: priorState})
		if err != nil {
			b.Fatal(err)
		}
		failOnErrors(b, "PlanResourceChange", planned.Diagnostics)
		if planned.PlannedState == nil {
			b.Fatal("no planned state")
		}
	}
}

// schemaFloorProvider serves sandbox_template's schemafloor as sandbox_template, with an empty provider block.
type schemaFloorProvider struct{}

func (schemaFloorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sandbox"
}

func (schemaFloorProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {
}

func (schemaFloorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (schemaFloorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return schemafloor.New(newTemplateResource()) }}
}

func (schemaFloorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// dynamicValue encodes an object of schema's type with the given attributes and every other one
// null, as Terraform sends a configuration; nil attributes encode a null object (no prior state).
func dynamicValue(b *testing.B, schema *tfprotov6.Schema, attributes map[string]tftypes.Value) *tfprotov6.DynamicValue {
	b.Helper()
	objectType, ok := schema.ValueType().(tftypes.Object)
	if !ok {
		b.Fatalf("schema type %v is not an object", schema.ValueType())
	}
	value := tftypes.NewValue(objectType, nil)
	if attributes != nil {
		values := map[string]tftypes.Value{}
		for name, attributeType := range objectType.AttributeTypes {
			values[name] = tftypes.NewValue(attributeType, nil)
			if v, ok := attributes[name]; ok {
				values[name] = v
			}
		}
		value = tftypes.NewValue(objectType, values)
	}
	dv, err := tfprotov6.NewDynamicValue(objectType, value)
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}

func failOnErrors(b *testing.B, call string, diags []*tfprotov6.Diagnostic) {
	b.Helper()
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}
