package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// checkedInterpreterConfig is a Bedrock template (an existing code interpreter, which builds
// nothing) and a check of it running commands.
func checkedInterpreterConfig(emu *awsemu.Emulator, commands string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  aws {
    region = "us-west-2"
    endpoints {
      bedrockagentcore_control = %q
      bedrockagentcore         = %q
    }
  }
}

resource "sandbox_template" "py" {
  backend     = "bedrock"
  template_id = "analysis-a1b2c3d4e5"
}

resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.py.template_ref
  commands     = %s
}
`, emu.URL, emu.DataPlaneURL, commands)
}

// noSessionLeft: the checks stopped their code interpreter sessions.
func noSessionLeft(emu *awsemu.Emulator) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if live := emu.CodeInterpreterSessions(); len(live) > 0 {
			return fmt.Errorf("code interpreter sessions still live: %+v", live)
		}
		return nil
	}
}

// TestAccTemplateCheckBedrock (issue 28): a Bedrock template that builds nothing is proven to run
// code: the check runs its commands in a session of the code interpreter, records the interpreter
// as the build checked, and stops the session; a command that fails (a library the interpreter
// does not have) fails the apply, naming it, and leaves no session live.
func TestAccTemplateCheckBedrock(t *testing.T) {
	emu := newAWS(t)
	emu.SeedCodeInterpreter("analysis-a1b2c3d4e5", "READY")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: checkedInterpreterConfig(emu, `[{ run = "python3 -c 'import pandas, polars'" }, { run = "echo ok", expect_output = "^ok" }]`),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(checkName, "build_id", "analysis-a1b2c3d4e5"),
					resource.TestCheckResourceAttr(checkName, "results.#", "2"),
					resource.TestCheckResourceAttr(checkName, "results.1.output", "ok"),
					noSessionLeft(emu),
				),
			},
			{
				Config: checkedInterpreterConfig(emu, `[{ run = "python3 -c 'import tensorflow'" }]`),
				ExpectError: expectError(`(?s)Check of build analysis-a1b2c3d4e5 failed.*CHECK: ` +
					words("`python3 -c 'import tensorflow'` exited with 1, want 0").String() + `.*No module named 'tensorflow'`),
			},
			{
				RefreshState:       true,
				ExpectNonEmptyPlan: true, // the failed check is not recorded: the next apply runs it again
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						if _, ok := s.RootModule().Resources[checkName]; ok {
							return fmt.Errorf("a failed check is in state")
						}
						return nil
					},
					noSessionLeft(emu),
				),
			},
		},
	})
}
