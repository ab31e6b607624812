package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// pyBody builds a plain Python image: start_cmd = "" because it has no code-interpreter start script.
const pyBody = `
  image     = "python:3.12-slim"
  start_cmd = ""
`

// e2bEmulator starts an E2B emulator without touching the process environment, so the test can run
// in parallel: its HCL sets api_url and api_key, which win over any E2B_* variable (and `make test`
// clears those at its edge, ACC_ENV).
func e2bEmulator(t *testing.T) *e2bemu.Server {
	return e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
}

var pyIdentity = map[string]knownvalue.Check{"backend": knownvalue.StringExact("e2b"), "template_id": knownvalue.StringExact("py")}

// TestAccTemplateIdentity: create and an update that makes no API call both record the identity
// (a missing one after update is an error on CLIs that keep identities), and an `import` block
// by identity finds the template again and plans to adopt it without a build.
func TestAccTemplateIdentity(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            e2bTemplate(emu, pyBody),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(resourceName, pyIdentity)},
			},
			{
				Config: e2bTemplate(emu, pyBody+`  keep_remotely = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate)}},
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectIdentity(resourceName, pyIdentity)},
				Check:             buildsAre(emu, 1),
			},
			{
				ResourceName:    resourceName,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				// Build inputs cannot be read back, so the import plans an update that only adopts them.
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
				}},
			},
		},
	})
}

// TestAccTemplateImportBlockByIdentityAdopts applies an `import` block with `identity = {...}` for a
// template that already exists: it is adopted, never built, and the next plan is empty.
func TestAccTemplateImportBlockByIdentityAdopts(t *testing.T) {
	emu := e2bEmulator(t)
	emu.SeedReadyTemplate("py")
	config := e2bTemplate(emu, pyBody)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config + `
import {
  to       = sandbox_template.py
  identity = { backend = "e2b", template_id = "py" }
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(resourceName, pyIdentity),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("image"), knownvalue.StringExact("python:3.12-slim")),
				},
				Check: buildsAre(emu, 0),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            buildsAre(emu, 0),
			},
		},
	})
}

// TestAccTemplateImportByIdentityRejectsBadIdentity: an identity naming an unknown backend fails
// the import with the same message as a bad import ID.
func TestAccTemplateImportByIdentityRejectsBadIdentity(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, pyBody) + `
import {
  to       = sandbox_template.py
  identity = { backend = "docker", template_id = "py" }
}
`,
			ExpectError: expectError(`Invalid import ID`),
		}},
	})
}
