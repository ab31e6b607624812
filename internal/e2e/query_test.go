package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryGeneratesConfigThatAdopts: `terraform query -generate-config-out` writes an import block
// by identity and a resource block for each listed template. Backends cannot report build inputs,
// so the block has `image = null` (the import docs say to set it); once it is set, apply adopts the
// template without building it.
func TestQueryGeneratesConfigThatAdopts(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("terraform query")
	emu, provider := newE2B(t)
	emu.SeedReadyTemplate("py")
	c.write("main.tf", provider)
	c.write("all.tfquery.hcl", `
list "sandbox_template" "e2b" {
  provider         = sandbox
  include_resource = true
  config {
    backend = "e2b"
  }
}
`)
	if out, err := c.run("query", "-generate-config-out=generated.tf", "-no-color"); err != nil {
		t.Fatalf("query: %v\n%s", err, out)
	}
	generated := filepath.Join(c.dir, "generated.tf")
	b, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	config := string(b)
	for _, want := range []string{`template_id = "py"`, `backend     = "e2b"`, "identity = {", "image            = null"} {
		if !strings.Contains(config, want) {
			t.Fatalf("the generated configuration lacks %q:\n%s", want, config)
		}
	}

	if out, err := c.run("plan", "-no-color"); err == nil || !strings.Contains(out, "Invalid image") || !strings.Contains(out, "image: is required") {
		t.Fatalf("planning the generated configuration as it is must fail with Invalid image, image is required (the documented step): %v\n%s", err, out)
	}
	config = strings.Replace(config, "image            = null", `image            = "python:3.12-slim"`, 1)
	if err := os.WriteFile(generated, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply of the completed generated configuration: %v\n%s", err, out)
	}
	if n := len(emu.BuildStarts()); n != 0 {
		t.Errorf("adopting a listed template started %d builds, want none", n)
	}
	if state := readState(t, filepath.Join(c.dir, "terraform.tfstate")); state["status"] != "SKIPPED" || state["image"] != "python:3.12-slim" {
		t.Errorf("state after the adopting apply = %v, want status SKIPPED with the image set", state)
	}
}
