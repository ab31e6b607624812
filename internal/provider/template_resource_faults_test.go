package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateSurvivesAFlakyAPI: with 30% of requests answered 5xx or 429, create, refresh and
// destroy still succeed, and the template is built exactly once.
func TestAccTemplateSurvivesAFlakyAPI(t *testing.T) {
	emu := newE2B(t)
	emu.SetFaults(e2bemu.Faults{Rate: 0.3, Seed: 42})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image    = "python:3.12-slim"
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
