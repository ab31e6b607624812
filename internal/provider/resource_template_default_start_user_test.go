package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// TestAccTemplateE2BUserStepWithTheDefaultStartCmd (issue 27, fix 1): E2B runs the start command as
// the last user step's user, whom a user step gives no sudo, so the default start command (sudo
// ...) would fail at finalize. The plan refuses it on that step, saying what to set, and makes no
// request; ending the steps with { user = "root" } builds.
func TestAccTemplateE2BUserStepWithTheDefaultStartCmd(t *testing.T) {
	emu := e2bEmulator(t)
	steps := `
  image = "e2bdev/code-interpreter:latest"
  steps = [
    { user = "app" },
    { run = { command = "id -u" } },%s
  ]
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: e2bTemplate(emu, fmt.Sprintf(steps, "")), PlanOnly: true,
				ExpectError: expectError(`(?s)Invalid steps\[0\]\.user.*\{ user = "app" \}.*` + words(`start_cmd is not set, so it would run the default "sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh" as app, whom a user step gives no sudo`).String() +
					`.*` + words(`Set start_cmd to your image's start command (start_cmd = "" for none), or end the steps with { user = "root" }`).String()),
			},
			{
				Config: e2bTemplate(emu, fmt.Sprintf(steps, "\n    { user = \"root\" },")),
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), func(*terraform.State) error {
					if start, err := lastStart(emu); err != nil || start.StartCmd == nil || *start.StartCmd == "" {
						return fmt.Errorf("build start %+v (%v), want the default start command", start, err)
					}
					return nil
				}),
			},
		},
	})
}
