package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

const checkName = "sandbox_template_check.smoke"

// checkedTemplateConfig is template py on OpenSandbox, built with packages and with the steps'
// environment, user and workdir, and a check of it that passes everything a consumer passes.
func checkedTemplateConfig(osb *opensandboxemu.Server, packages, commands string) string {
	return openSandboxConfig(osb, nil, `
  image     = "python:3.12"
  start_cmd = "sleep infinity"
  packages  = `+packages+`
  steps = [
    { env = { MPLBACKEND = "Agg" } },
    { user = "analyst" },
    { workdir = "/home/analyst/work" },
  ]
`) + `
resource "sandbox_template_check" "smoke" {
  template_ref       = sandbox_template.py.template_ref
  sandbox_entrypoint = sandbox_template.py.sandbox_entrypoint
  sandbox_env        = sandbox_template.py.sandbox_env
  sandbox_workdir    = sandbox_template.py.sandbox_workdir
  sandbox_user       = sandbox_template.py.sandbox_user
  commands           = ` + commands + `
  timeout            = "2m"

  lifecycle {
    replace_triggered_by = [sandbox_template.py.build_id]
  }
}
`
}

// noCheckSandboxLeft: every sandbox the emulator ever started is deleted, the check's included.
func noCheckSandboxLeft(osb *opensandboxemu.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, sb := range osb.Sandboxes() {
			if !sb.Deleted {
				return fmt.Errorf("sandbox %s (snapshot %q, metadata %v) still runs", sb.ID, sb.SnapshotID, sb.Metadata)
			}
		}
		return nil
	}
}

// TestAccTemplateCheckOpenSandbox: a check starts a sandbox from the template's snapshot as a
// consumer does and runs its commands there, as the template's user, in its workdir, with its
// environment; it records the snapshot it checked (the template's build_id) and what each command
// came to, and leaves no sandbox running. A new build replaces the check (replace_triggered_by),
// which checks the new snapshot; changed commands replace it too.
func TestAccTemplateCheckOpenSandbox(t *testing.T) {
	osb := openSandboxEmulator(t)
	commands := `[
    { run = "python3 -c 'import pandas'" },
    { run = "whoami; pwd; echo $MPLBACKEND", expect_output = "^analyst\\n/home/analyst/work\\nAgg\\n$" },
    { run = "test -e /nope", expect_exit_code = 1 },
  ]`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: checkedTemplateConfig(osb, `["pandas"]`, commands),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					resource.TestCheckResourceAttr(checkName, "results.#", "3"),
					resource.TestCheckResourceAttr(checkName, "results.0.passed", "true"),
					resource.TestCheckResourceAttr(checkName, "results.1.output", "analyst\n/home/analyst/work\nAgg"),
					resource.TestCheckResourceAttr(checkName, "results.2.exit_code", "1"),
					resource.TestCheckResourceAttrSet(checkName, "checked_at"),
					noCheckSandboxLeft(osb),
					checkSandboxRestored(osb, []string{"sh", "-c", "sleep infinity"}),
				),
			},
			{ // a new build: the check runs again, on the new snapshot
				Config: checkedTemplateConfig(osb, `["pandas", "numpy"]`, commands),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(checkName, plancheck.ResourceActionDestroyBeforeCreate)}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					noCheckSandboxLeft(osb),
				),
			},
			{
				Config: checkedTemplateConfig(osb, `["pandas", "numpy"]`, `[{ run = "python3 -c 'import numpy'" }]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(checkName, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionNoop)}},
				Check: resource.TestCheckResourceAttr(checkName, "results.#", "1"),
			},
		},
	})
}

// checkSandboxRestored: the check's sandbox was restored from the template's snapshot with its
// entrypoint and environment, carrying the check labels.
func checkSandboxRestored(osb *opensandboxemu.Server, entrypoint []string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		check := s.RootModule().Resources[checkName].Primary.Attributes
		for _, sb := range osb.Sandboxes() {
			if sb.ID != check["id"] {
				continue
			}
			if sb.SnapshotID != check["build_id"] || strings.Join(sb.Entrypoint, " ") != strings.Join(entrypoint, " ") ||
				sb.Env["MPLBACKEND"] != "Agg" || sb.Metadata["sandboxtf-role"] != "template-check" {
				return fmt.Errorf("check sandbox %+v: want snapshot %s, entrypoint %q, sandbox_env and the check labels", sb, check["build_id"], entrypoint)
			}
			return nil
		}
		return fmt.Errorf("no sandbox %s", check["id"])
	}
}

// TestAccTemplateCheckOpenSandboxMissingPackage: a check whose command fails (a package the build
// did not install) fails the apply, naming the command, its exit code and what Python printed;
// nothing is recorded, and no sandbox is left running.
func TestAccTemplateCheckOpenSandboxMissingPackage(t *testing.T) {
	osb := openSandboxEmulator(t)
	config := checkedTemplateConfig(osb, `["pandas"]`, `[
    { run = "python3 -c 'import pandas'" },
    { run = "python3 -c 'import polars'" },
    { run = "echo never runs" },
  ]`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				// The diagnostic points at the failing command's line of the configuration.
				ExpectError: expectError(`(?s)Check of build snap-\S+ failed.*\{ run = "python3 -c 'import polars'" \},.*CHECK: ` +
					words("`python3 -c 'import polars'` exited with 1, want 0; its output ends:").String() +
					`.*ModuleNotFoundError: No module named 'polars'.*Nothing was recorded`),
			},
			{ // the template stays; the check is not in state, and no sandbox runs
				Config: openSandboxConfig(osb, nil, `
  image     = "python:3.12"
  start_cmd = "sleep infinity"
  packages  = ["pandas"]
  steps = [
    { env = { MPLBACKEND = "Agg" } },
    { user = "analyst" },
    { workdir = "/home/analyst/work" },
  ]
`),
				Check: resource.ComposeTestCheckFunc(
					func(s *terraform.State) error {
						if _, ok := s.RootModule().Resources[checkName]; ok {
							return fmt.Errorf("a failed check is in state")
						}
						return nil
					},
					noCheckSandboxLeft(osb),
					func(*terraform.State) error {
						for _, sb := range osb.Sandboxes() {
							if sb.Metadata["sandboxtf-role"] == "template-check" {
								var ran []string
								for _, c := range sb.Commands {
									ran = append(ran, c.Command)
								}
								if ran[len(ran)-1] != "python3 -c 'import polars'" { // after the user's look-up and the first command
									return fmt.Errorf("the check ran %q: want it to stop at the failing command", ran)
								}
							}
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccTemplateCheckValidation: what plan time can tell is refused on the attribute at fault.
func TestAccTemplateCheckValidation(t *testing.T) {
	check := func(ref, commands string) string {
		return `
resource "sandbox_template_check" "smoke" {
  template_ref = ` + ref + `
  commands     = ` + commands + `
}
`
	}
	osRef := `{ provider = "opensandbox", value = "py" }`
	plainE2BName := `Invalid template_ref.*` + words("the E2B backend cannot start sandboxes from its builds yet").String()
	if e2b.Backend.Checks {
		plainE2BName = `Invalid template_ref.*` + words(`"py" names the build the plain template name starts, whichever it is when the check runs, not one build: pass the template's build_ref ("py:<build_id>")`).String()
	}
	for _, tt := range []struct{ name, config, want string }{
		{"empty command", check(osRef, `[{ run = " " }]`), `Invalid check command.*run is empty`},
		{"bad regex", check(osRef, `[{ run = "true", expect_output = "(" }]`), `Invalid check command.*expect_output is not a regular expression`},
		{"no commands", check(osRef, `[]`), `No commands.*A check runs at least one command`},
		{"bad timeout", strings.Replace(check(osRef, `[{ run = "true" }]`), "commands", "timeout = \"soon\"\n  commands", 1), `Invalid timeout.*"soon" is not a positive duration`},
		{"plain e2b name", check(`{ provider = "e2b", value = "py" }`, `[{ run = "true" }]`), plainE2BName},
		{"unknown backend", check(`{ provider = "docker", value = "py" }`, `[{ run = "true" }]`), `Invalid template_ref.*unknown backend "docker"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps:                    []resource.TestStep{{Config: tt.config, PlanOnly: true, ExpectError: expectError(`(?s)` + tt.want)}},
			})
		})
	}
}

// TestAccTemplateCheckOpenSandboxNewSnapshotChecksAgain: without replace_triggered_by, the apply
// that rebuilds the template keeps the check of the old snapshot (at plan time the name still
// served it), and the next plan finds the name serving another snapshot and replaces the check,
// with a warning: every snapshot consumers get is checked, one apply later.
func TestAccTemplateCheckOpenSandboxNewSnapshotChecksAgain(t *testing.T) {
	osb := openSandboxEmulator(t)
	config := func(packages string) string {
		return strings.Replace(checkedTemplateConfig(osb, packages, `[{ run = "python3 -c 'import pandas'" }]`),
			"replace_triggered_by = [sandbox_template.py.build_id]", "", 1)
	}
	var first string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config(`["pandas"]`),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					resource.TestCheckResourceAttrWith(checkName, "build_id", func(v string) error { first = v; return nil }),
				),
			},
			{
				Config:             config(`["pandas", "numpy"]`),
				ExpectNonEmptyPlan: true, // the check of the new snapshot is planned after this apply
				Check: resource.TestCheckResourceAttrWith(checkName, "build_id", func(v string) error {
					if v != first {
						return fmt.Errorf("the check records %s, want the snapshot it checked, %s", v, first)
					}
					return nil
				}),
			},
			{
				Config: config(`["pandas", "numpy"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(checkName, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionNoop)}},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrPair(checkName, "build_id", resourceName, "build_id"),
					noCheckSandboxLeft(osb),
				),
			},
		},
	})
}
