package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

const (
	testAWSKeyID  = "AKIAPROVIDERTEST0001"
	testAWSSecret = "provider-test-aws-secret"
)

// newAWS starts an AWS emulator that accepts the key pair TestMain gives the SDK's default chain.
func newAWS(t *testing.T) *awsemu.Emulator {
	t.Helper()
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
	resource.ParallelTest(t, resource.TestCase{
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
	resource.ParallelTest(t, resource.TestCase{
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

// The built-in interpreter is usable by definition: SKIPPED even where GetCodeInterpreter would answer
// 404 for it (the emulator does: it was never seeded), with no request to AWS.
func TestAccTemplateBedrockSystemInterpreterIsSkipped(t *testing.T) {
	emu := newAWS(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: bedrockConfig(emu, awsemu.SystemCodeInterpreterID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"provider": knownvalue.StringExact("bedrock"), "value": knownvalue.StringExact(awsemu.SystemCodeInterpreterID)})),
			},
			Check: func(*terraform.State) error {
				if reqs := emu.Requests(); len(reqs) != 0 {
					return fmt.Errorf("the built-in interpreter needs no request, sent %+v", reqs)
				}
				return nil
			},
		}},
	})
}

// An UNSUPPORTED resource is re-checked on refresh: once its interpreter is READY it turns SKIPPED,
// with the template_ref consumers need, and the plan stays empty.
func TestAccTemplateBedrockUnsupportedBecomesSkippedOnRefresh(t *testing.T) {
	emu := newAWS(t)
	const id = "later-a1b2c3d4e5"
	config := bedrockConfig(emu, id)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("UNSUPPORTED")),
				},
			},
			{
				PreConfig:        func() { emu.SeedCodeInterpreter(id, "READY") },
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"provider": knownvalue.StringExact("bedrock"), "value": knownvalue.StringExact(id)})),
				},
			},
		},
	})
}

// A re-check that fails (here: the principal lost GetCodeInterpreter) keeps the recorded UNSUPPORTED:
// nothing remote backs it, so refresh and plan go on, with a warning.
func TestAccTemplateBedrockFailedRecheckKeepsUnsupported(t *testing.T) {
	emu := newAWS(t)
	config := bedrockConfig(emu, "denied-a1b2c3d4e5")
	unsupported := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("UNSUPPORTED")),
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: unsupported},
			{
				PreConfig: func() {
					emu.SeedCodeInterpreter("denied-a1b2c3d4e5", "READY")
					emu.DenyAccess("GetCodeInterpreter")
				},
				Config:            config,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: unsupported,
				Check: func(*terraform.State) error {
					for _, req := range emu.Requests() {
						if req.ErrorCode == "AccessDeniedException" {
							return nil
						}
					}
					return fmt.Errorf("refresh never re-checked the interpreter: %+v", emu.Requests())
				},
			},
		},
	})
}

func TestAccTemplateBedrockWithoutRegionFailsAtPlan(t *testing.T) {
	newAWS(t)
	resource.ParallelTest(t, resource.TestCase{
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
