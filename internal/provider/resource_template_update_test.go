package provider

import (
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestUpdateFollowsThePlan: the plan decides once whether an update builds (ModifyPlan: an unknown
// status), and apply does what it decided, whatever it would make of the plan and the state itself:
// a plan that keeps the build makes no build though an input differs from state (as when an import's
// inputs are adopted), and one that builds builds though no input changed (as for a SUPERSEDED record).
func TestUpdateFollowsThePlan(t *testing.T) {
	emu := newE2B(t)
	server, err := providerserver.NewProtocol6WithError(newWithEnv("test", func(string) string { return "" })())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	providerType, ok := schemas.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("the provider schema is a %s", schemas.Provider.ValueType())
	}
	e2b := objectOf(t, providerType.AttributeTypes["e2b"], map[string]tftypes.Value{"api_url": str(emu.URL), "api_key": str(testE2BAPIKey)})
	configured, err := server.ConfigureProvider(t.Context(), &tfprotov6.ConfigureProviderRequest{
		Config: dynamic(t, providerType, objectOf(t, providerType, map[string]tftypes.Value{"e2b": e2b}))})
	failOn(t, "ConfigureProvider", err, configured.Diagnostics)

	templateType := schemas.ResourceSchemas["sandbox_template"].ValueType()
	config := objectOf(t, templateType, map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"),
		"image": str("e2bdev/code-interpreter:latest"), "start_cmd": str("")})
	apply := func(prior, planned, config tftypes.Value) tftypes.Value {
		t.Helper()
		applied, err := server.ApplyResourceChange(t.Context(), &tfprotov6.ApplyResourceChangeRequest{TypeName: "sandbox_template",
			PriorState: dynamic(t, templateType, prior), PlannedState: dynamic(t, templateType, planned), Config: dynamic(t, templateType, config)})
		failOn(t, "ApplyResourceChange", err, applied.Diagnostics)
		state, err := applied.NewState.Unmarshal(templateType)
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	planned, err := server.PlanResourceChange(t.Context(), &tfprotov6.PlanResourceChangeRequest{TypeName: "sandbox_template",
		Config: dynamic(t, templateType, config), ProposedNewState: dynamic(t, templateType, config),
		PriorState: dynamic(t, templateType, tftypes.NewValue(templateType, nil))})
	failOn(t, "PlanResourceChange", err, planned.Diagnostics)
	plannedCreate, err := planned.PlannedState.Unmarshal(templateType)
	if err != nil {
		t.Fatal(err)
	}
	built := apply(tftypes.NewValue(templateType, nil), plannedCreate, config)
	if n := len(emu.BuildStarts()); n != 1 {
		t.Fatalf("the create started %d builds", n)
	}

	otherImage := with(t, config, "image", str("e2bdev/code-interpreter:other"))
	kept := apply(built, with(t, built, "image", str("e2bdev/code-interpreter:other")), otherImage)
	if n := len(emu.BuildStarts()); n != 1 {
		t.Errorf("a plan that keeps the build started a build (%d in all)", n)
	}
	if !attributeOf(t, kept, "status").Equal(attributeOf(t, built, "status")) {
		t.Errorf("a kept build recorded status %v", attributeOf(t, kept, "status"))
	}

	before := len(emu.BuildStarts())
	apply(kept, with(t, kept, "status", tftypes.NewValue(tftypes.String, tftypes.UnknownValue)), otherImage)
	if n := len(emu.BuildStarts()); n != before+1 {
		t.Errorf("a plan that builds started %d builds, want 1", n-before)
	}
}

// with is object with one attribute set to v.
func with(t *testing.T, object tftypes.Value, name string, v tftypes.Value) tftypes.Value {
	t.Helper()
	var values map[string]tftypes.Value
	if err := object.As(&values); err != nil {
		t.Fatal(err)
	}
	values = maps.Clone(values) // As shares the object's own map
	values[name] = v
	return tftypes.NewValue(object.Type(), values)
}

func attributeOf(t *testing.T, object tftypes.Value, name string) tftypes.Value {
	t.Helper()
	var values map[string]tftypes.Value
	if err := object.As(&values); err != nil {
		t.Fatal(err)
	}
	return values[name]
}

func dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// failOn fails the test on an RPC's error or error diagnostics.
func failOn(t *testing.T, call string, err error, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", call, err)
	}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: %s: %s", call, d.Summary, d.Detail)
		}
	}
}
