package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const resourceName = "sandbox_template.py"

func e2bTemplate(emu *e2bemu.Server, body string) string {
	return e2bProvider(emu) + fmt.Sprintf(`
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
%s
}
`, body)
}

// builds counts the builds the emulator started, as a check in a test step.
func buildsAre(emu *e2bemu.Server, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(emu.BuildStarts()); got != want {
			return fmt.Errorf("emulator started %d builds, want %d", got, want)
		}
		return nil
	}
}

func TestAccTemplateE2BLifecycle(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := emu.Template("py"); ok {
				return fmt.Errorf("destroy must delete the remote template")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  packages = ["pandas==2.2.3", "numpy"]
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("id"), knownvalue.StringExact("py")),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"provider": knownvalue.StringExact("e2b"), "value": knownvalue.StringExact("py")})),
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("last_built_at"), knownvalue.NotNull()),
					// A success's build log stays with E2B, out of state.
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("logs"), knownvalue.ListSizeExact(0)),
				},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 1), func(*terraform.State) error {
					start := emu.BuildStarts()[0]
					if start.Body.FromImage == nil || *start.Body.FromImage != "e2bdev/code-interpreter:latest" {
						return fmt.Errorf("build started from %v, want e2bdev/code-interpreter:latest", start.Body.FromImage)
					}
					return nil
				}),
			},
			{
				// Same config: the refresh finds the template usable and the plan is empty.
				Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  packages = ["pandas==2.2.3", "numpy"]
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            buildsAre(emu, 1),
			},
			{
				// An image change is a real rebuild, in place.
				Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:1.0"
  packages = ["pandas==2.2.3", "numpy"]
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate)}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), func(*terraform.State) error {
					if got := *emu.BuildStarts()[1].Body.FromImage; got != "e2bdev/code-interpreter:1.0" {
						return fmt.Errorf("rebuild from %s, want e2bdev/code-interpreter:1.0", got)
					}
					return nil
				}),
			},
			{
				// keep_remotely and timeouts are not build inputs: an update without any build.
				Config: e2bTemplate(emu, `
  image         = "e2bdev/code-interpreter:1.0"
  packages      = ["pandas==2.2.3", "numpy"]
  keep_remotely = false
  timeouts      = { create = "5m" }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
				}},
				Check: buildsAre(emu, 2),
			},
			{
				ResourceName:      resourceName,
				ImportState:       true,
				ImportStateId:     "e2b/py",
				ImportStateVerify: true,
				// Inputs cannot be read back from E2B; the build outcome of an import is SKIPPED.
				ImportStateVerifyIgnore: []string{"image", "packages", "timeouts", "status", "detail", "logs", "last_built_at"},
			},
		},
	})
}

func TestAccTemplateE2BOutOfBandDeleteRecreates(t *testing.T) {
	emu := newE2B(t)
	config := e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: buildsAre(emu, 1)},
			{
				PreConfig: func() {
					if !emu.DeleteTemplateOutOfBand("py") {
						t.Fatal("the template must exist before the out-of-band delete")
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionCreate)}},
				Check: buildsAre(emu, 2),
			},
		},
	})
}

// A refresh costs one E2B request per template (issue 6's goal): the emulator counts them.
func TestAccTemplateE2BRefreshCostsOneRequestPerTemplate(t *testing.T) {
	emu := newE2B(t)
	const templates = 3
	config := e2bProvider(emu) + fmt.Sprintf(`
resource "sandbox_template" "many" {
  count       = %d
  backend     = "e2b"
  template_id = "many-${count.index}"
  image       = "e2bdev/code-interpreter:latest"
}
`, templates)
	var before int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: buildsAre(emu, templates)},
			{
				PreConfig:    func() { before = len(emu.Requests()) },
				RefreshState: true,
				Check: func(*terraform.State) error {
					var sent []string
					for _, r := range emu.Requests()[before:] {
						sent = append(sent, r.Method+" "+r.Path)
					}
					if len(sent) != templates {
						return fmt.Errorf("the refresh of %d templates sent %d requests, want %d: %v", templates, len(sent), templates, sent)
					}
					return nil
				},
			},
		},
	})
}

// An api_key taken from another resource is unknown at plan time: the plan must not call the
// backend unconfigured, and the apply, by when the key is known, builds.
func TestAccTemplateE2BAPIKeyKnownOnlyAtApply(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "terraform_data" "key" {
  input = %q
}

provider "sandbox" {
  e2b {
    api_url = %q
    api_key = terraform_data.key.output
  }
}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "e2bdev/code-interpreter:latest"
}
`, testE2BAPIKey, emu.URL),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
			Check: buildsAre(emu, 1),
		}},
	})
}

// Another team's public template answers to the alias as well, but neither a create (whose fast path
// would record it as SKIPPED, ours) nor an import may adopt it.
// TestAccTemplateE2BNeverAdoptsAnotherTeamsTemplate: an alias that resolves to another team's
// promoted template is never imported or adopted, yet E2B lets this team create its own template
// under that name, in its namespace (handlers/template_request_build_v3.go), so create builds it.
func TestAccTemplateE2BNeverAdoptsAnotherTeamsTemplate(t *testing.T) {
	emu := newE2B(t)
	emu.SeedForeignTemplate("py", true)
	config := e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ResourceName: resourceName, ImportState: true, ImportStateId: "e2b/py",
				ExpectError: expectError(`Cannot import non-existent remote object`)},
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
				Check: buildsAre(emu, 1)},
		},
	})
	if info, ok := emu.Template("py"); !ok || len(info.ReadyTags) == 0 {
		t.Errorf("our own template py = %+v (found %v), want a ready build in this team's namespace", info, ok)
	}
}

func TestAccTemplateE2BKeepRemotely(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, ok := emu.Template("py"); !ok {
				return fmt.Errorf("keep_remotely = true must leave the remote template in place")
			}
			return nil
		},
		Steps: []resource.TestStep{{Config: e2bTemplate(emu, `
  image         = "e2bdev/code-interpreter:latest"
  keep_remotely = true
`)}},
	})
}

// TestAccTemplateE2BSkipsUsableTemplate: a template kept by keep_remotely is created again from the
// same inputs: it is adopted (SKIPPED), not built. One another tool built, which records no inputs,
// is rebuilt instead: adopting it would record inputs it may not have been built from.
func TestAccTemplateE2BSkipsUsableTemplate(t *testing.T) {
	emu := newE2B(t)
	kept := e2bTemplate(emu, "  image         = \"e2bdev/code-interpreter:latest\"\n  keep_remotely = true\n")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: kept, Check: buildsAre(emu, 1)},
			{Config: e2bProvider(emu)}, // destroyed, kept remotely
			{
				Config: kept,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED"))},
				Check: buildsAre(emu, 1),
			},
		},
	})
}

func TestAccTemplateE2BRebuildsATemplateAnotherToolBuilt(t *testing.T) {
	emu := newE2B(t)
	emu.SeedReadyTemplate("py")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
			Check: buildsAre(emu, 1),
		}},
	})
}

func TestAccTemplateE2BFailedBuild(t *testing.T) {
	emu := newE2B(t)
	emu.FailBuild("py", "pip install failed: no matching distribution for numpyy")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image    = "e2bdev/code-interpreter:latest"
  packages = ["numpyy"]
`),
			ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD.*no matching distribution.*Last build log lines`),
		}},
	})
}

func TestAccTemplateE2BWriteOnlySecretNeverInState(t *testing.T) {
	emu := newE2B(t)
	const secret = "wo-registry-password-5f1c"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, fmt.Sprintf(`
  image     = "registry.example.com/team/py:1"
  start_cmd = "" # a private image without E2B's code-interpreter start script
  registry_auth = {
    basic = {
      username            = "ci-bot"
      password_wo         = %q
      password_wo_version = 1
    }
  }
`, secret)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("registry_auth").AtMapKey("basic").AtMapKey("password_wo"), knownvalue.Null()),
			},
			Check: resource.ComposeTestCheckFunc(stateHasNo(secret), func(*terraform.State) error {
				reg := emu.BuildStarts()[0]
				if reg.RegistryType != "registry" {
					return fmt.Errorf("registry type = %q, want registry", reg.RegistryType)
				}
				return nil
			}),
		}},
	})
}

func TestAccTemplateE2BSensitivePasswordOnOlderCLIs(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image     = "registry.example.com/team/py:1"
  start_cmd = "" # a private image without E2B's code-interpreter start script
  registry_auth = {
    basic = {
      username = "ci-bot"
      password = "plain-but-sensitive"
    }
  }
`),
			Check: func(*terraform.State) error {
				if got := emu.BuildStarts()[0].RegistryType; got != "registry" {
					return fmt.Errorf("registry type = %q, want registry", got)
				}
				return nil
			},
		}},
	})
}

func TestAccTemplateDataSource(t *testing.T) {
	emu := newE2B(t)
	emu.SeedReadyTemplate("shared")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: e2bProvider(emu) + `
data "sandbox_template" "shared" {
  backend     = "e2b"
  template_id = "shared"
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.sandbox_template.shared", tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"provider": knownvalue.StringExact("e2b"), "value": knownvalue.StringExact("shared")})),
				},
			},
			{
				Config: e2bProvider(emu) + `
data "sandbox_template" "missing" {
  backend     = "e2b"
  template_id = "missing"
}`,
				ExpectError: expectError(`Sandbox template not found`),
			},
		},
	})
}

func TestAccTemplateImportBlock(t *testing.T) {
	emu := newE2B(t)
	emu.SeedReadyTemplate("py")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		Steps: []resource.TestStep{{
			// The imported template is adopted: an in-place update that records the configured
			// inputs without building; the plan after it is empty.
			Config: e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`) + `
import {
  to = sandbox_template.py
  id = "e2b/py"
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate)}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SKIPPED")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("image"), knownvalue.StringExact("e2bdev/code-interpreter:latest")),
			},
			Check: buildsAre(emu, 0),
		}},
	})
}
