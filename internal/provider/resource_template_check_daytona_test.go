package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

// daytonaCheckConfig is template py on Daytona, built with pandas, and a check of the snapshot its
// template_ref names (on Daytona the reference is one build already).
func daytonaCheckConfig(emu *daytonaemu.Server, commands string) string {
	return daytonaConfig(emu, fmt.Sprintf(`
  image    = %q
  packages = ["pandas"]
  steps    = [{ env = { MPLBACKEND = "Agg" } }]
`, testDaytonaImage)) + `
resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.py.template_ref
  sandbox_env  = sandbox_template.py.sandbox_env
  commands     = ` + commands + `
  timeout      = "2m"
}
`
}

// noDaytonaSandboxLeft: the emulator holds no sandbox that was not destroyed.
func noDaytonaSandboxLeft(emu *daytonaemu.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := emu.Stats().Sandboxes; n != 0 {
			return fmt.Errorf("%d sandboxes still run", n)
		}
		return nil
	}
}

// TestAccTemplateCheckDaytona: a check of a Daytona template starts a sandbox from the snapshot its
// template_ref names (the build), runs its commands through the toolbox with the template's
// environment, records that snapshot as build_id and deletes the sandbox; a command that fails
// (a module the build never installed) fails the apply naming it and its exit code, records
// nothing and leaves no sandbox.
func TestAccTemplateCheckDaytona(t *testing.T) {
	emu := newDaytona(t, daytonaemu.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: daytonaCheckConfig(emu, `[
    { run = "python3 -c 'import pandas'" },
    { run = "echo $MPLBACKEND", expect_output = "^Agg\\n$" },
  ]`),
				Check: resource.ComposeTestCheckFunc(
					resource.TestMatchResourceAttr(checkName, "build_id", daytonaSnapshotName),
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "template_ref.value"),
					resource.TestCheckResourceAttr(checkName, "results.#", "2"),
					resource.TestCheckResourceAttr(checkName, "results.1.passed", "true"),
					noDaytonaSandboxLeft(emu),
				),
			},
			{
				Config:      daytonaCheckConfig(emu, `[{ run = "python3 -c 'import polars'" }]`),
				ExpectError: regexp.MustCompile(`(?s)import polars.*exited with 1.*No module named .polars.`),
			},
			{
				Config:             daytonaCheckConfig(emu, `[{ run = "python3 -c 'import polars'" }]`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true, // the failed check recorded nothing: it is still to create
				Check:              noDaytonaSandboxLeft(emu),
			},
		},
	})
}
