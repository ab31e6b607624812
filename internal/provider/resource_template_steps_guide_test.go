package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccTemplateDataScienceGuide applies the build steps guide's data-science example as the docs
// show it, on both building backends: every step builds, the outputs are what the guide says, and
// an E2B sandbox created with e2b_sandbox_env as its envs has the env steps' variables.
func TestAccTemplateDataScienceGuide(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "guides", "build-steps"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	emu, osb := e2bEmulator(t), openSandboxEmulator(t)
	providers := fmt.Sprintf(`
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
`, emu.URL, testE2BAPIKey, osb.URL, testOpenSandboxAPIKey)
	config := providers + strings.ReplaceAll(string(example), "${path.module}", dir) // the test's module is elsewhere
	status := func(name string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("sandbox_template."+name, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{status("data_science"), status("data_science_opensandbox"),
				statecheck.ExpectKnownOutputValue("opensandbox_start", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"entrypoint": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("/opt/code-interpreter/code-interpreter.sh")}),
					"env": knownvalue.MapExact(map[string]knownvalue.Check{"MPLBACKEND": knownvalue.StringExact("Agg"),
						"DATA_DIR": knownvalue.StringExact("/home/analyst/data")}),
					"workdir": knownvalue.StringExact("/home/analyst"),
					"user":    knownvalue.StringExact("analyst"),
				})),
				statecheck.ExpectKnownOutputValue("e2b_sandbox_env", knownvalue.MapExact(map[string]knownvalue.Check{
					"MPLBACKEND": knownvalue.StringExact("Agg"), "DATA_DIR": knownvalue.StringExact("/home/user/data")})),
			},
			Check: sandboxPrints(emu, "data-science", map[string]string{"MPLBACKEND": "Agg", "DATA_DIR": "/home/user/data"},
				"[Agg /home/user/data] user /home/user\n"),
		}},
	})
}
