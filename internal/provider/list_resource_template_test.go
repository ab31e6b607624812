package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

func identityOf(backend, templateID string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"backend": knownvalue.StringExact(backend), "template_id": knownvalue.StringExact(templateID)}
}

// TestAccTemplateListE2B: `terraform query` lists the team's E2B templates (the one this
// configuration built and one made elsewhere), never another team's, with their identities, and
// the resource an import would start from when include_resource is set.
func TestAccTemplateListE2B(t *testing.T) {
	emu := e2bEmulator(t)
	emu.SeedReadyTemplate("made-elsewhere")
	emu.SeedForeignTemplate("not-ours", true)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, pyBody)},
			{
				Query: true,
				// The query runs beside the configuration applied before, whose provider block it uses.
				Config: `
list "sandbox_template" "all" {
  provider         = sandbox
  include_resource = true
  config {
    backend = "e2b"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sandbox_template.all", 2),
					querycheck.ExpectIdentity("sandbox_template.all", identityOf("e2b", "py")),
					querycheck.ExpectIdentity("sandbox_template.all", identityOf("e2b", "made-elsewhere")),
					querycheck.ExpectResourceDisplayName("sandbox_template.all",
						queryfilter.ByResourceIdentity(identityOf("e2b", "made-elsewhere")), knownvalue.StringExact("made-elsewhere")),
					querycheck.ExpectResourceKnownValues("sandbox_template.all", queryfilter.ByResourceIdentity(identityOf("e2b", "py")),
						[]querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("backend"), KnownValue: knownvalue.StringExact("e2b")},
							{Path: tfjsonpath.New("template_id"), KnownValue: knownvalue.StringExact("py")},
							{Path: tfjsonpath.New("image"), KnownValue: knownvalue.Null()},
						}),
				},
			},
		},
	})
}

// TestAccTemplateListOpenSandbox: the names of Ready snapshots, once each.
func TestAccTemplateListOpenSandbox(t *testing.T) {
	osb := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: testOpenSandboxAPIKey})
	providerConfig := fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = %q
  }
}
`, osb.URL, testOpenSandboxAPIKey)
	template := func(name string) string {
		return fmt.Sprintf(`
resource "sandbox_template" %[1]q {
  backend     = "opensandbox"
  template_id = %[1]q
  image       = "python:3.12-slim"
  start_cmd   = ""
}
`, name)
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: providerConfig + template("alpha") + template("beta")},
			{
				Query: true,
				Config: `
list "sandbox_template" "all" {
  provider = sandbox
  config {
    backend = "opensandbox"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sandbox_template.all", 2),
					querycheck.ExpectIdentity("sandbox_template.all", identityOf("opensandbox", "alpha")),
					querycheck.ExpectIdentity("sandbox_template.all", identityOf("opensandbox", "beta")),
				},
			},
		},
	})
}

// TestAccTemplateListUnconfiguredBackend: listing a backend the provider has no settings for
// fails, naming the missing setting.
func TestAccTemplateListUnconfiguredBackend(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, pyBody)},
			{
				Query: true,
				Config: `
list "sandbox_template" "all" {
  provider = sandbox
  config {
    backend = "opensandbox"
  }
}
`,
				ExpectError: expectError(`opensandbox.domain`),
			},
		},
	})
}
