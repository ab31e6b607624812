package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateSurvivesAFlakyAPI: with 30% of requests answered 5xx or 429, create, refresh and
// destroy still succeed, and the template is built exactly once.
func TestAccTemplateSurvivesAFlakyAPI(t *testing.T) {
	emu := newE2B(t)
	emu.SetFaults(e2bemu.Faults{Rate: 0.3, Seed: 42})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  packages = ["numpy"]
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
			},
			Check: buildsAre(emu, 1),
		}},
	})
	if emu.InjectedFaults() == 0 {
		t.Fatal("no fault was injected, so the retries were never exercised")
	}
}

// TestAccTemplateRecoversFromALostConnection: every status poll of the first apply loses its
// connection while the build is still running, so the create gives up and the resource stays in
// state, tainted (out of state on Terraform >= 1.16). The build then finishes; the next apply replaces
// the tainted resource (creates it) by adopting that template: one build in all.
func TestAccTemplateRecoversFromALostConnection(t *testing.T) {
	emu := newE2B(t)
	emu.HangBuild("py")
	emu.DropConnectionsDuringBuild("py", 1000)
	config := e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: expectError(`Template build failed at stage TEMPLATE_BUILD`)},
			{
				PreConfig: func() { emu.DropConnectionsDuringBuild("py", 0); emu.ReleaseBuild("py") },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectRebuildOfFailedCreate{resourceName}}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED"))},
				Check: buildsAre(emu, 1),
			},
		},
	})
}

// TestAccTemplateCreateTimeout: a build that never finishes hits the create timeout with a clear
// error, and the state still holds the template (the next plan replaces it rather than creating
// it afresh; Terraform >= 1.16: out of state, created again); once the build is let go, the
// replacement adopts it without a second build.
func TestAccTemplateCreateTimeout(t *testing.T) {
	emu := newE2B(t)
	emu.HangBuild("py")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  timeouts = { create = "2s" }
`),
				ExpectError: expectError(`(?s)Template build failed at stage TIMEOUT.*context\s+deadline\s+exceeded`),
			},
			{
				PreConfig: func() { emu.ReleaseBuild("py") },
				Config:    e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					expectRebuildOfFailedCreate{resourceName}}},
				Check: buildsAre(emu, 1),
			},
		},
	})
}

// TestAccTemplateLostConnectionButBuildFinished: the polls are lost but the build finishes
// meanwhile; Ensure finds the template usable after the failed wait and the apply succeeds.
func TestAccTemplateLostConnectionButBuildFinished(t *testing.T) {
	emu := newE2B(t)
	emu.DropConnectionsDuringBuild("py", 1000)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED"))},
			Check: buildsAre(emu, 1),
		}},
	})
}
