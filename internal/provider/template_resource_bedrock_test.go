package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

const (
	testAWSKeyID  = "AKIAPROVIDERTEST0001"
	testAWSSecret = "provider-test-aws-secret"
)

// newAWS starts the AWS emulator and points the SDK's default chain at fake, isolated credentials.
func newAWS(t *testing.T) *awsemu.Emulator {
	t.Helper()
	awsemu.IsolateSDK(t, map[string]string{"AWS_ACCESS_KEY_ID": testAWSKeyID, "AWS_SECRET_ACCESS_KEY": testAWSSecret})
	return awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: testAWSKeyID, SecretAccessKey: testAWSSecret})
}

func bedrockConfig(emu *awsemu.Emulator, templateID string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  aws {
    region = "us-west-2"
    endpoints {
      bedrockagentcore_control = %q
    }
  }
}

resource "sandbox_template" "py" {
  backend     = "bedrock"
  template_id = %q
}
`, emu.URL, templateID)
}

func TestAccTemplateBedrockReadyInterpreterIsSkipped(t *testing.T) {
	emu := newAWS(t)
	emu.SeedCodeInterpreter("analysis-a1b2c3d4e5", "READY")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: bedrockConfig(emu, "analysis-a1b2c3d4e5"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"provider": knownvalue.StringExact("bedrock"), "value": knownvalue.StringExact("analysis-a1b2c3d4e5")})),
			},
		}},
	})
}

func TestAccTemplateBedrockUnsupported(t *testing.T) {
	emu := newAWS(t)
	config := bedrockConfig(emu, "missing-a1b2c3d4e5")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("UNSUPPORTED")),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.Null()),
				},
			},
			{
				// Nothing exists remotely, so a refresh must not drop it and re-create it forever.
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestAccTemplateBedrockWithoutRegionFailsAtPlan(t *testing.T) {
	newAWS(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
resource "sandbox_template" "py" {
  backend     = "bedrock"
  template_id = "aws.codeinterpreter.v1"
}`,
			PlanOnly:    true,
			ExpectError: expectError(`(?s)Backend not configured.*aws.region`),
		}},
	})
}
