package provider

import (
	"context"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestReadSettingsFallsBackToTheEnvironment: a setting the provider block leaves unset (or
// empty) takes its environment variable, as the getenv the provider was made with reads it; one
// the block sets keeps the block's value; one known only at apply is marked so, and holds the
// environment's value meanwhile. Settings the AWS SDK resolves itself are not read.
func TestReadSettingsFallsBackToTheEnvironment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := providerSchema()
	objectType, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T", s.Type().TerraformType(ctx))
	}
	block := func(name string, values map[string]tftypes.Value) tftypes.Value {
		typ, ok := objectType.AttributeTypes[name].(tftypes.Object)
		if !ok {
			t.Fatalf("%s is not a block", name)
		}
		for attribute, attributeType := range typ.AttributeTypes {
			if _, ok := values[attribute]; !ok {
				values[attribute] = tftypes.NewValue(attributeType, nil)
			}
		}
		return tftypes.NewValue(typ, values)
	}
	top := map[string]tftypes.Value{}
	for name, typ := range objectType.AttributeTypes {
		top[name] = tftypes.NewValue(typ, nil)
	}
	top["e2b"] = block("e2b", map[string]tftypes.Value{
		"api_url": tftypes.NewValue(tftypes.String, "http://from-hcl"),
		"domain":  tftypes.NewValue(tftypes.String, ""),
		"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
	})
	env := map[string]string{"E2B_API_URL": "http://from-env", "E2B_DOMAIN": "env.example", "E2B_API_KEY": "env-key",
		"OPEN_SANDBOX_DOMAIN": "osb:8080", "OPEN_SANDBOX_PROTOCOL": "https", "AWS_REGION": "eu-west-1", "AWS_ENDPOINT_URL_ECR": "http://ecr"}
	config := tfsdk.Config{Schema: s, Raw: tftypes.NewValue(objectType, top)}
	settings, diags := readSettings(ctx, config, func(name string) string { return env[name] })
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := map[string]string{"e2b.api_url": "http://from-hcl", "e2b.domain": "env.example", "e2b.api_key": "env-key",
		"opensandbox.domain": "https://osb:8080"}
	if !maps.Equal(settings.Values, want) {
		t.Errorf("values = %v, want %v", settings.Values, want)
	}
	if !maps.Equal(settings.Unknown, map[string]bool{"e2b.api_key": true}) {
		t.Errorf("unknown = %v, want only e2b.api_key", settings.Unknown)
	}
}

// TestAccProviderSettingsFromTheEnvironment: with no provider block at all, the settings come from
// the environment the provider reads (here its own, not the process's) and the template builds.
func TestAccProviderSettingsFromTheEnvironment(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories(map[string]string{"E2B_API_URL": emu.URL, "E2B_API_KEY": testE2BAPIKey}),
		Steps: []resource.TestStep{{
			Config: `
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
			Check: buildsAre(emu, 1),
		}},
	})
}
