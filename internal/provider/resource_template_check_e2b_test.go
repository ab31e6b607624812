package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// gatedPromotion is the promotion guide's "verify before promote": a candidate build of packages,
// a check of exactly that build (build_ref) that imports polars, and prod taking the check's
// build_id. The provider reaches sandboxes' envd at the emulator (sandbox_url), as E2B's SDKs
// reach a self-hosted client proxy.
func gatedPromotion(emu *e2bemu.Server, packages string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url     = %q
    api_key     = %q
    sandbox_url = %q
  }
}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
  packages    = %s
  candidate   = true
}

resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.py.build_ref
  sandbox_env  = sandbox_template.py.sandbox_env
  commands     = [{ run = "python -c 'import polars'" }]
}
`, emu.URL, testE2BAPIKey, emu.URL, packages) + prodAt("sandbox_template_check.smoke.build_id")
}

// noE2BSandboxLeft: the checks ended their sandboxes.
func noE2BSandboxLeft(emu *e2bemu.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if running := emu.Sandboxes(); len(running) > 0 {
			return fmt.Errorf("sandboxes still run: %+v", running)
		}
		return nil
	}
}

// TestAccTemplateCheckGatesPromotion (issue 28): a tag whose target is a check's build_id moves
// only after the check passed. A candidate missing a package fails its check, the apply fails
// and prod stays on the build that passed; a candidate that has it moves prod.
func TestAccTemplateCheckGatesPromotion(t *testing.T) {
	emu := newE2B(t)
	var first, third string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: gatedPromotion(emu, `["polars"]`),
				Check: resource.ComposeTestCheckFunc(
					capture(&first),
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					resource.TestCheckResourceAttrPair(prodName, "build_id", resourceName, "build_id"),
					starts(emu, "py:prod", &first),
					noE2BSandboxLeft(emu),
				),
			},
			{
				Config: gatedPromotion(emu, `["pandas"]`),
				ExpectError: expectError(`(?s)Check of build \S+ failed.*CHECK: ` +
					words("`python -c 'import polars'` exited with 1, want 0").String() + `.*No module named 'polars'`),
			},
			{ // prod did not move: it still starts the build that passed (the next plan checks again)
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(prodName, "build_id", func(v string) error {
						if v != first {
							return fmt.Errorf("prod points at %s after a failed check, want %s", v, first)
						}
						return nil
					}),
					starts(emu, "py:prod", &first),
					noE2BSandboxLeft(emu),
				),
			},
			{
				Config: gatedPromotion(emu, `["pandas", "polars"]`),
				Check: resource.ComposeTestCheckFunc(
					capture(&third),
					resource.TestCheckResourceAttrPair(prodName, "build_id", resourceName, "build_id"),
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					starts(emu, "py:prod", &third),
					noE2BSandboxLeft(emu),
				),
			},
		},
	})
}

// TestAccTemplateCheckRefNamingNoBuild: a build_ref whose build the template does not have (a
// typo, a build deleted since) is refused at plan, on template_ref, before any sandbox starts.
func TestAccTemplateCheckRefNamingNoBuild(t *testing.T) {
	emu := newE2B(t)
	built := gatedPromotion(emu, `["polars"]`)
	missing := strings.Replace(built, "template_ref = sandbox_template.py.build_ref",
		`template_ref = { provider = "e2b", value = "py:0f8c2b9e-3a1d-4c5e-9f7a-2b6d8e1c4a3f" }`, 1)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: built},
			{
				Config:      missing,
				PlanOnly:    true,
				ExpectError: expectError(`(?s)No build to check.*` + words("build 0f8c2b9e-3a1d-4c5e-9f7a-2b6d8e1c4a3f of template py names no ready build").String()),
			},
		},
	})
}
