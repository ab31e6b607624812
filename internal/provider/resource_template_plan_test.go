package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestAccTemplatePlanKeepsIDAndRefAndReplacesOnRename: what the plan says besides the build, all
// from ModifyPlan: a rebuild keeps id and template_ref known (the template keeps its name), and a
// new template_id or backend replaces the resource.
func TestAccTemplatePlanKeepsIDAndRefAndReplacesOnRename(t *testing.T) {
	emu := newE2B(t)
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	config := func(backend, templateID, image string) string {
		return fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url = %q
    api_key = %q
  }
  opensandbox {
    domain  = %q
    api_key = %q
  }
}

resource "sandbox_template" "t" {
  backend     = %q
  template_id = %q
  image       = %q
  start_cmd   = ""
}
`, emu.URL, testE2BAPIKey, osb.URL, testOpenSandboxAPIKey, backend, templateID, image)
	}
	const name = "sandbox_template.t"
	ref := func(backend, templateID string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"provider": knownvalue.StringExact(backend), "value": knownvalue.StringExact(templateID)})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("e2b", "a", "python:3.12-slim")},
			{
				Config: config("e2b", "a", "python:3.13-slim"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(name, tfjsonpath.New("id"), knownvalue.StringExact("a")),
					plancheck.ExpectKnownValue(name, tfjsonpath.New("template_ref"), ref("e2b", "a")),
					plancheck.ExpectUnknownValue(name, tfjsonpath.New("last_built_at")),
				}},
			},
			{
				Config: config("e2b", "b", "python:3.13-slim"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(name, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(name, tfjsonpath.New("template_ref"), ref("e2b", "b")),
				}},
			},
			{
				Config: config("opensandbox", "b", "python:3.13-slim"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(name, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(name, tfjsonpath.New("template_ref"), ref("opensandbox", "b")),
				}},
			},
		},
	})
}
