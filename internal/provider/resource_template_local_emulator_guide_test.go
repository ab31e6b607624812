package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccTemplateLocalEmulatorPrivateImageGuide applies the local-emulator guide's private-image
// example on both building backends: declared with the guide's image.json through each emulator's
// images control path, the image runs node and has the user app, and both templates build; left
// undeclared it is taken for Debian with Python 3.12, as the guide says, and the node step fails.
func TestAccTemplateLocalEmulatorPrivateImageGuide(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "guides", "local-emulator", "private-image")
	example, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	declaration, err := os.ReadFile(filepath.Join(dir, "image.json"))
	if err != nil {
		t.Fatal(err)
	}
	apply := func(t *testing.T, declare bool, step resource.TestStep) {
		emu, osb := e2bEmulator(t), openSandboxEmulator(t)
		if declare {
			for _, url := range []string{emu.URL, osb.URL} {
				declareImage(t, url, "ghcr.io/acme/app", declaration)
			}
		}
		step.Config = fmt.Sprintf(`
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
`, emu.URL, testE2BAPIKey, osb.URL, testOpenSandboxAPIKey) + string(example)
		step.ConfigVariables = config.Variables{"registry_password": config.StringVariable("registry-password")}
		resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: protoV6ProviderFactories, Steps: []resource.TestStep{step}})
	}
	status := func(backend string) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("sandbox_template."+backend, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))
	}
	t.Run("declared", func(t *testing.T) {
		apply(t, true, resource.TestStep{ConfigStateChecks: []statecheck.StateCheck{status("e2b"), status("opensandbox"),
			statecheck.ExpectKnownValue("sandbox_template.opensandbox", tfjsonpath.New("sandbox_user"), knownvalue.StringExact("app"))}})
	})
	t.Run("undeclared", func(t *testing.T) {
		apply(t, false, resource.TestStep{ExpectError: words("node: command not found")})
	})
}

// declareImage posts a declaration (the JSON -image takes) for ref to an emulator's images control path.
func declareImage(t *testing.T, emulatorURL, ref string, declaration []byte) {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(declaration, &body); err != nil {
		t.Fatal(err)
	}
	body["ref"] = ref
	payload, _ := json.Marshal(body)
	resp, err := http.Post(emulatorURL+"/_emulator/images", "application/json", bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("declaring %s at %s: %s", ref, emulatorURL, resp.Status)
	}
}
