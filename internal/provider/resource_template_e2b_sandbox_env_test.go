package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateE2BSandboxEnv (issue 27, fix 3): E2B's env steps are build-time only; a sandbox
// gets the template's user and working directory, and as environment only the create request's
// envVars. So sandbox_env is set on E2B too, known at plan, and a sandbox created with it as envs
// (as the SDK's Sandbox.create sends them) has the variables, one created without has not.
func TestAccTemplateE2BSandboxEnv(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image     = "python:3.12"
  start_cmd = ""
  steps = [
    { env = { MPLBACKEND = "Agg", DATA_DIR = "/srv/data" } },
    { run = { command = "test \"$MPLBACKEND\" = Agg" } }, # the build's later steps have it
    { user = "analyst" },
    { workdir = "/srv" },
  ]
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_env"), knownvalue.MapExact(map[string]knownvalue.Check{
					"MPLBACKEND": knownvalue.StringExact("Agg"), "DATA_DIR": knownvalue.StringExact("/srv/data")})),
				// E2B keeps these in the template: a sandbox runs as analyst in /srv by itself.
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_user"), knownvalue.Null()),
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_workdir"), knownvalue.Null()),
			}},
			Check: resource.ComposeTestCheckFunc(
				sandboxPrints(emu, "py", nil, "[ ] analyst /srv\n"),
				sandboxPrints(emu, "py", map[string]string{"MPLBACKEND": "Agg", "DATA_DIR": "/srv/data"}, "[Agg /srv/data] analyst /srv\n"),
			),
		}},
	})
}

// sandboxPrints creates a sandbox of template with envVars, as E2B's SDK does (POST /sandboxes),
// and checks what a command run in it, as envd runs one, prints of its environment, user and
// working directory.
func sandboxPrints(emu *e2bemu.Server, template string, envVars map[string]string, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		body, _ := json.Marshal(map[string]any{"templateID": template, "envVars": envVars})
		req, _ := http.NewRequest(http.MethodPost, emu.URL+"/sandboxes", bytes.NewReader(body))
		req.Header.Set("X-API-Key", testE2BAPIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer func() { _ = resp.Body.Close() }()
		var created struct {
			SandboxID string `json:"sandboxID"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
			return fmt.Errorf("POST /sandboxes = %d (%v)", resp.StatusCode, err)
		}
		defer func() {
			kill, _ := http.NewRequest(http.MethodDelete, emu.URL+"/sandboxes/"+created.SandboxID, nil)
			kill.Header.Set("X-API-Key", testE2BAPIKey)
			if resp, err := http.DefaultClient.Do(kill); err == nil {
				_ = resp.Body.Close()
			}
		}()
		r, ok := emu.RunInSandbox(created.SandboxID, `echo "[$MPLBACKEND $DATA_DIR] $(id -un) $PWD"`)
		if !ok || r.Stdout != want {
			return fmt.Errorf("a sandbox created with envVars %v printed %q (%+v), want %q", envVars, r.Stdout, r, want)
		}
		return nil
	}
}
