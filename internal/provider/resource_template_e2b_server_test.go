package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Acceptance tests of what the real E2B server does and the provider must get right (issue 10);
// the emulator follows e2b-dev/infra (see internal/emulator/e2bemu).

// TestAccTemplateE2BFailedBuildIsFailed: E2B tags a template when its build is requested, so a
// first build that fails leaves a tagged template. The apply must fail with the build's stage and
// reason, never record SKIPPED ("a concurrent builder won").
func TestAccTemplateE2BFailedBuildIsFailed(t *testing.T) {
	emu := newE2B(t)
	emu.FailBuild("py", "pip install exited with code 1")
	config := e2bTemplate(emu, `  image = "e2bdev/code-interpreter:latest"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD.*pip install exited with code 1`)},
			{
				PreConfig: func() {
					if info, _ := emu.Template("py"); len(info.Tags) == 0 || len(info.ReadyTags) != 0 {
						t.Errorf("template = %+v, want tagged at registration and no ready build: the case this test is about", info)
					}
				},
				Config: config, PlanOnly: true, ExpectNonEmptyPlan: true, // tainted: the next apply replaces it
			},
		},
	})
}

// TestAccTemplateE2BDefaultStartCommand: without start_cmd an image build starts E2B's
// code-interpreter script, which python:3.12-slim lacks (sudo: command not found, exit 1); the error names the setting, and
// start_cmd = "" builds the same image with no start command sent.
func TestAccTemplateE2BDefaultStartCommand(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      e2bTemplate(emu, `  image = "python:3.12-slim"`),
				ExpectError: expectError(`(?s)start\s+command\s+failed.*exit\s+status\s+1\b.*the\s+start\s+command\s+was\s+the\s+default.*set\s+start_cmd.*start_cmd\s+=\s+""`),
			},
			{
				Config: e2bTemplate(emu, `
  image     = "python:3.12-slim"
  start_cmd = ""
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
				Check: func(*terraform.State) error {
					starts := emu.BuildStarts()
					if last := starts[len(starts)-1].Body; last.StartCmd != nil || last.ReadyCmd != nil {
						return fmt.Errorf(`start_cmd = "" sent start %v, ready %v; want neither`, last.StartCmd, last.ReadyCmd)
					}
					return nil
				},
			},
		},
	})
}

// TestAccTemplateE2BBuildLimitIsWaitedOut: 25 templates against a team limit of 5 concurrent
// builds (E2B answers 429 until a build ends) all build, with no error.
func TestAccTemplateE2BBuildLimitIsWaitedOut(t *testing.T) {
	emu := newE2B(t)
	emu.SetBuildConcurrency(5)
	emu.SetBuildDuration(200 * time.Millisecond)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bProvider(emu) + `
resource "sandbox_template" "many" {
  count       = 25
  backend     = "e2b"
  template_id = "many-${count.index}"
  image       = "e2bdev/code-interpreter:latest"
}
`,
			Check: resource.ComposeTestCheckFunc(buildsAre(emu, 25), func(*terraform.State) error {
				if n := emu.CountRequests("POST", "/v3/templates"); n <= 25 {
					return fmt.Errorf("%d registrations for 25 templates: the limit of 5 was never hit, so this proves nothing", n)
				}
				return nil
			}),
		}},
	})
}

// TestAccTemplateE2BTimedOutUpdateIsRecordedAndAdopted: a rebuild that outlives its update
// timeout is recorded as FAILED/TIMEOUT (the inputs in state stay the old ones, so the next plan
// retries), and the retry adopts the build that finished meanwhile instead of building twice: its
// inputs tag says it was made from the planned inputs.
func TestAccTemplateE2BTimedOutUpdateIsRecordedAndAdopted(t *testing.T) {
	emu := newE2B(t)
	withPackages := func(pkg, timeout string) string {
		return e2bTemplate(emu, fmt.Sprintf(`
  image    = "e2bdev/code-interpreter:latest"
  packages = [%q]
  timeouts = { update = %q }
`, pkg, timeout))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withPackages("pkg-a==1.0", "30m"), Check: buildsAre(emu, 1)},
			{
				PreConfig:   func() { emu.HangBuild("py") },
				Config:      withPackages("pkg-b==2.0", "2s"),
				ExpectError: expectError(`(?s)Template build failed at stage TIMEOUT`),
			},
			{
				RefreshState: true, ExpectNonEmptyPlan: true, // the update is still to do
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(resourceName, "status", "FAILED"),
					resource.TestCheckResourceAttr(resourceName, "stage", "TIMEOUT"),
					resource.TestCheckResourceAttr(resourceName, "packages.0", "pkg-a==1.0"),
					resource.TestCheckResourceAttr(resourceName, "template_ref.value", "py")),
			},
			{
				PreConfig: func() {
					emu.ReleaseBuild("py")
					deadline := time.Now().Add(30 * time.Second)
					for info, _ := emu.Template("py"); info.BuildStatus != "ready" && time.Now().Before(deadline); info, _ = emu.Template("py") {
						time.Sleep(10 * time.Millisecond)
					}
				},
				Config: withPackages("pkg-b==2.0", "30m"),
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2),
					resource.TestCheckResourceAttr(resourceName, "status", "SKIPPED"),
					resource.TestCheckResourceAttr(resourceName, "packages.0", "pkg-b==2.0")),
			},
		},
	})
}
