package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Acceptance tests of the promise that state says what sandboxes start from (issue 19): each case
// once recorded a build input that E2B was not serving.

// servedRuns is a check that the build sandboxes of template py start from (the newest build tagged
// default that is ready, get_template_with_build_by_tag.sql) ran exactly these RUN steps.
func servedRuns(emu *e2bemu.Server, want ...string) resource.TestCheckFunc {
	const alias = "py"
	return func(*terraform.State) error {
		start, ok := servedStart(emu, alias)
		if !ok {
			return fmt.Errorf("no ready build serves %s", alias)
		}
		var runs []string
		for _, step := range start.Body.Steps {
			runs = append(runs, strings.Join(step.Args, " "))
		}
		if !slices.Equal(runs, want) {
			return fmt.Errorf("the build serving %s ran %q, want %q", alias, runs, want)
		}
		return nil
	}
}

func servedStart(emu *e2bemu.Server, alias string) (e2bemu.BuildStart, bool) {
	info, ok := emu.Template(alias)
	for i := len(info.Builds) - 1; ok && i >= 0; i-- {
		if b := info.Builds[i]; b.Status == "ready" && slices.Contains(b.Tags, "default") {
			for _, start := range emu.BuildStarts() {
				if start.BuildID == b.BuildID {
					return start, true
				}
			}
		}
	}
	return e2bemu.BuildStart{}, false
}

// ciTemplateWithPackage is template py on E2B's code-interpreter image with one package.
func ciTemplateWithPackage(emu *e2bemu.Server, pkg, updateTimeout string) string {
	return e2bTemplate(emu, fmt.Sprintf(`
  image    = "e2bdev/code-interpreter:latest"
  packages = [%q]
  timeouts = { update = %q }
`, pkg, updateTimeout))
}

// TestAccTemplateRebuildTriggersRebuild: a changed rebuild_triggers value rebuilds; it once planned
// an update that adopted the build made for the old value and built nothing.
func TestAccTemplateRebuildTriggersRebuild(t *testing.T) {
	emu := newE2B(t)
	withTrigger := func(value string) string {
		return e2bTemplate(emu, fmt.Sprintf(`
  image            = "e2bdev/code-interpreter:latest"
  rebuild_triggers = { requirements = %q }
`, value))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withTrigger("h1"), Check: buildsAre(emu, 1)},
			{Config: withTrigger("h2"), Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2),
				resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS"))},
		},
	})
}

// TestAccTemplateE2BFailedUpdateIsRetriedNotAdopted: pkg-a builds, the update to pkg-b fails. E2B
// tagged the failed build default and inputs-<pkg-b> when it was requested, while sandboxes still
// start from pkg-a. The same apply again must build pkg-b, not record it as adopted.
func TestAccTemplateE2BFailedUpdateIsRetriedNotAdopted(t *testing.T) {
	emu := newE2B(t)
	withPackage := func(pkg string) string { return ciTemplateWithPackage(emu, pkg, "30m") }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withPackage("pkg-a"), Check: servedRuns(emu, "pip install pkg-a root")},
			{
				PreConfig:   func() { emu.FailBuild("py", "pip install exited with code 1") },
				Config:      withPackage("pkg-b"),
				ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD.*pip install exited with code 1`),
			},
			{
				Config: withPackage("pkg-b"),
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 3), servedRuns(emu, "pip install pkg-b root"),
					resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS")),
			},
		},
	})
}

// TestAccTemplateE2BRetryWaitsForTheRunningBuild: an update that outlives its timeout leaves E2B
// building; the retry, applied while that build still runs, waits for it and adopts it instead of
// starting a second build (or recording SKIPPED at once while nothing is ready). When the running
// build then fails, the retry builds again: state never says pkg-b while pkg-a is served.
func TestAccTemplateE2BRetryWaitsForTheRunningBuild(t *testing.T) {
	for _, runningFails := range []bool{false, true} {
		t.Run(fmt.Sprintf("running build fails: %v", runningFails), func(t *testing.T) {
			emu := newE2B(t)
			withPackage := func(pkg, timeout string) string { return ciTemplateWithPackage(emu, pkg, timeout) }
			// Adopting the running build builds nothing: SKIPPED. Building again after it failed: SUCCESS.
			builds, runs, status := 2, "pip install pkg-b root", "SKIPPED"
			if runningFails {
				builds, status = 3, "SUCCESS"
			}
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: withPackage("pkg-a", "30m")},
					{
						PreConfig: func() {
							emu.HangBuild("py")
							if runningFails {
								emu.FailBuild("py", "pip install exited with code 1")
							}
						},
						Config:      withPackage("pkg-b", "2s"),
						ExpectError: expectError(`(?s)Template build failed at stage TIMEOUT`),
					},
					{
						PreConfig: func() {
							time.AfterFunc(time.Second, func() { emu.ReleaseBuild("py") }) // while the retry waits
						},
						Config: withPackage("pkg-b", "30m"),
						Check: resource.ComposeTestCheckFunc(buildsAre(emu, builds), servedRuns(emu, runs),
							resource.TestCheckResourceAttr(resourceName, "status", status)),
					},
				},
			})
		})
	}
}

// TestAccTemplateE2BDockerfileWithoutCMDStartsNothing: the code-interpreter start command is the
// design's default for builds from image; a Dockerfile without CMD once got it and failed at its
// start command on any image but E2B's own.
func TestAccTemplateE2BDockerfileWithoutCMDStartsNothing(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `  dockerfile = "FROM python:3.12-slim\nRUN pip install numpy\n"`),
			Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "status", "SUCCESS"),
				func(*terraform.State) error {
					if start, _ := servedStart(emu, "py"); start.Body.StartCmd != nil {
						return fmt.Errorf("start command %q sent for a Dockerfile without CMD", *start.Body.StartCmd)
					}
					return nil
				}),
		}},
	})
}

// TestAccTemplateE2BFailedUpdateRevertedIsConfirmed: pkg-a builds, the update to pkg-b fails, and the
// configuration goes back to pkg-a. State records FAILED, so the plan is not empty: the apply confirms
// that pkg-a's build still serves the template (no build) and records SKIPPED; then the plan is empty.
func TestAccTemplateE2BFailedUpdateRevertedIsConfirmed(t *testing.T) {
	emu := newE2B(t)
	withPackage := func(pkg string) string { return ciTemplateWithPackage(emu, pkg, "30m") }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withPackage("pkg-a")},
			{
				PreConfig:   func() { emu.FailBuild("py", "pip install exited with code 1") },
				Config:      withPackage("pkg-b"),
				ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD`),
			},
			{Config: withPackage("pkg-a"), PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				Config: withPackage("pkg-a"),
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), servedRuns(emu, "pip install pkg-a root"),
					resource.TestCheckResourceAttr(resourceName, "status", "SKIPPED")),
			},
		},
	})
}

// TestAccTemplateOpenSandboxNewerSnapshotIsNoticed: consumers start sandboxes from the newest Ready
// snapshot of the name. When another configuration (or a manual build) leaves a newer one, state no
// longer says what sandboxes start from: the refresh notices and the plan rebuilds, then is empty.
func TestAccTemplateOpenSandboxNewerSnapshotIsNoticed(t *testing.T) {
	osb := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: testOpenSandboxAPIKey})
	config := openSandboxConfig(osb, nil, `  image = "opensandbox/code-interpreter:v1.1.0"`)
	var newer string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: func(s *terraform.State) error {
				if id := s.RootModule().Resources[resourceName].Primary.Attributes["build_id"]; !slices.ContainsFunc(osb.Snapshots(),
					func(snap opensandboxemu.Snapshot) bool { return snap.ID == id && snap.Name == "py" }) {
					return fmt.Errorf("build_id %q is not the snapshot the build made", id)
				}
				return nil
			}},
			{
				PreConfig: func() { newer = osb.SeedSnapshot("py", "Ready", "python:3.12") },
				Config:    config, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				RefreshState: true, ExpectNonEmptyPlan: true, // the record no longer claims SUCCESS
				Check: resource.TestCheckResourceAttr(resourceName, "status", "SUPERSEDED"),
			},
			{Config: config, Check: func(s *terraform.State) error {
				if id := s.RootModule().Resources[resourceName].Primary.Attributes["build_id"]; id == newer || id == "" {
					return fmt.Errorf("build_id = %q after the rebuild, want the rebuilt snapshot, not the other one (%s)", id, newer)
				}
				return nil
			}},
			{Config: config, PlanOnly: true},
		},
	})
}

// TestAccTemplateE2BDestroyAfterAFailedUpdateDeletes: a failed update leaves the template serving the
// build recorded before it. Destroy deletes it; it was once kept, as an interrupted create's finished
// build is, leaving a template no state records.
func TestAccTemplateE2BDestroyAfterAFailedUpdateDeletes(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if info, ok := emu.Template("py"); ok && slices.Contains(info.ReadyTags, "default") {
				return fmt.Errorf("template py still serves a build after destroy: %+v", info)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: ciTemplateWithPackage(emu, "pkg-a", "30m")},
			{
				PreConfig:   func() { emu.FailBuild("py", "pip install exited with code 1") },
				Config:      ciTemplateWithPackage(emu, "pkg-b", "30m"),
				ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD`),
			},
		},
	})
}
