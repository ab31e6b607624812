package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

const (
	testDaytonaAPIKey = "dtn_test-key-0123456789"
	// testDaytonaImage is pinned, so no plan or build asks a registry for its digest.
	testDaytonaImage = "python:3.12@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
)

func newDaytona(t *testing.T) *daytonaemu.Server {
	t.Helper()
	return daytonaemu.NewTestServer(t, daytonaemu.Options{APIKey: testDaytonaAPIKey})
}

func daytonaConfig(emu *daytonaemu.Server, body string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  daytona {
    api_url = %q
    api_key = %q
  }
}

resource "sandbox_template" "py" {
  backend     = "daytona"
  template_id = "py"
%s
}
`, emu.APIURL(), testDaytonaAPIKey, body)
}

func TestAccTemplateDaytonaFromImage(t *testing.T) {
	emu := newDaytona(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: daytonaConfig(emu, fmt.Sprintf(`  image = %q`, testDaytonaImage)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
			},
		}},
	})
}
