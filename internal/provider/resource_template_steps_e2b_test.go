package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// ciBody builds from E2B's code-interpreter image (it has python, node and npm) and starts nothing.
const ciBody = `
  image     = "e2bdev/code-interpreter:latest"
  start_cmd = ""
`

// lastStart is the body of the newest build start the emulator received.
func lastStart(emu *e2bemu.Server) (e2bemu.TemplateBuildStartV2, error) {
	starts := emu.BuildStarts()
	if len(starts) == 0 {
		return e2bemu.TemplateBuildStartV2{}, fmt.Errorf("no build was started")
	}
	return starts[len(starts)-1].Body, nil
}

// stepsSent checks the steps of the last build start: type and args, and whether a filesHash came.
func stepsSent(emu *e2bemu.Server, want ...e2bemu.TemplateStep) resource.TestCheckFunc {
	return func(*terraform.State) error {
		start, err := lastStart(emu)
		if err != nil {
			return err
		}
		got := make([]e2bemu.TemplateStep, len(start.Steps))
		for i, s := range start.Steps {
			got[i] = e2bemu.TemplateStep{Type: s.Type, Args: s.Args, Force: s.Force}
			if s.FilesHash != nil {
				hashed := "sha256"
				got[i].FilesHash = &hashed
			}
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("steps sent = %s, want %s", render(got), render(want))
		}
		return nil
	}
}

func render(steps []e2bemu.TemplateStep) string {
	var out []string
	for _, s := range steps {
		text := fmt.Sprintf("%s %q force=%v", s.Type, s.Args, s.Force)
		if s.FilesHash != nil {
			text += " filesHash"
		}
		out = append(out, text)
	}
	return "[" + strings.Join(out, "; ") + "]"
}

func run(args ...string) e2bemu.TemplateStep { return e2bemu.TemplateStep{Type: "RUN", Args: args} }

// layersCached checks which layers of the template's newest build came from E2B's cache, in order
// (base, default user, then each step).
func layersCached(emu *e2bemu.Server, want ...bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		info, ok := emu.Template("py")
		if !ok || len(info.Builds) == 0 {
			return fmt.Errorf("template py has no build")
		}
		var got []bool
		var texts []string
		for _, l := range info.Builds[len(info.Builds)-1].Layers {
			got = append(got, l.Cached)
			texts = append(texts, fmt.Sprintf("%s cached=%v", l.Text, l.Cached))
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Errorf("layers:\n  %s\nwant cached %v", strings.Join(texts, "\n  "), want)
		}
		return nil
	}
}

// TestAccTemplateE2BStepKinds: each step kind reaches E2B as E2B's SDK sends it, and the emulated
// build (which refuses what E2B's orchestrator refuses) succeeds.
func TestAccTemplateE2BStepKinds(t *testing.T) {
	files := t.TempDir()
	if err := os.WriteFile(filepath.Join(files, "jupyter_config.py"), []byte("c.ServerApp.ip = '0.0.0.0'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hashed := "sha256"
	for _, tt := range []struct {
		kind, step string
		want       e2bemu.TemplateStep
	}{
		{"run", `{ run = { command = "jupyter kernelspec list", user = "root" } }`, run("jupyter kernelspec list", "root")},
		{"apt", `{ apt = { packages = ["ffmpeg", "libgl1"], no_install_recommends = true } }`,
			run("apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y --no-install-recommends ffmpeg libgl1", "root")},
		{"pip", `{ pip = { packages = ["pandas==2.2.3", "scipy>=1.13"], global = false } }`, run("pip install --user pandas==2.2.3 'scipy>=1.13'")},
		{"npm", `{ npm = { packages = ["typescript@5"], global = true } }`, run("npm install -g typescript@5", "root")},
		{"env", `{ env = { MPLBACKEND = "Agg", DATA_DIR = "/data" } }`, e2bemu.TemplateStep{Type: "ENV", Args: []string{"DATA_DIR", "/data", "MPLBACKEND", "Agg"}}},
		{"workdir", `{ workdir = "/home/user/work" }`, e2bemu.TemplateStep{Type: "WORKDIR", Args: []string{"/home/user/work"}}},
		{"user", `{ user = "analyst" }`, e2bemu.TemplateStep{Type: "USER", Args: []string{"analyst"}}},
		{"git_clone", `{ git_clone = { url = "https://github.com/e2b-dev/e2b-cookbook", branch = "main", depth = 1, path = "/home/user/cookbook" } }`,
			run("git clone https://github.com/e2b-dev/e2b-cookbook --branch main --single-branch --depth 1 /home/user/cookbook")},
		{"file", fmt.Sprintf(`{ file = { source = %q, destination = "/root/.jupyter/", mode = "644", owner = "root" } }`, filepath.Join(files, "jupyter_config.py")),
			e2bemu.TemplateStep{Type: "COPY", Args: []string{"jupyter_config.py", "/root/.jupyter/", "root", "0644"}, FilesHash: &hashed}},
		{"file content", `{ file = { content = "export A=1\n", destination = "/etc/profile.d/a.sh" } }`,
			e2bemu.TemplateStep{Type: "COPY", Args: []string{"a.sh", "/etc/profile.d/a.sh", "", ""}, FilesHash: &hashed}},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			emu := e2bEmulator(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: e2bTemplate(emu, ciBody+"  steps = ["+tt.step+"]\n"),
					Check:  resource.ComposeTestCheckFunc(stepsSent(emu, tt.want), layersCached(emu, false, false, false)),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
				}},
			})
		})
	}
}

// TestAccTemplateE2BEditingTheLastStepRebuildsOnlyIt: E2B keys each layer on the one before it,
// so after an edit of the last step the next build takes every earlier layer from its cache and
// builds only the edited step. packages is the first step.
func TestAccTemplateE2BEditingTheLastStepRebuildsOnlyIt(t *testing.T) {
	emu := e2bEmulator(t)
	config := func(last string) string {
		return e2bTemplate(emu, ciBody+`
  packages = ["numpy"]
  steps = [
    { apt = { packages = ["ffmpeg"] } },
    { run = { command = "echo `+last+`" } },
  ]
`)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("one"), Check: layersCached(emu, false, false, false, false, false)},
			{
				Config: config("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("build_id"))}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2),
					stepsSent(emu, run("pip install numpy", "root"),
						run("apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y ffmpeg", "root"),
						run("echo two")),
					layersCached(emu, true, true, true, true, false)),
			},
		},
	})
}

// TestAccTemplateE2BForcedStep: force on a step makes E2B build it and every step after it on each
// build (builder.go forceSteps); the steps before it still come from the cache. Here a
// rebuild_triggers change asks for the build.
func TestAccTemplateE2BForcedStep(t *testing.T) {
	emu := e2bEmulator(t)
	config := func(commit string) string {
		return e2bTemplate(emu, ciBody+`
  rebuild_triggers = { commit = "`+commit+`" }
  steps = [
    { apt = { packages = ["git"] } },
    { git_clone = { url = "https://github.com/e2b-dev/e2b-cookbook", path = "/home/user/cookbook" }, force = true },
    { run = { command = "ls /home/user/cookbook" } },
  ]
`)
	}
	forced := run("git clone https://github.com/e2b-dev/e2b-cookbook /home/user/cookbook")
	forced.Force = true
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config("a1"), Check: layersCached(emu, false, false, false, false, false)},
			{Config: config("b2"), Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2),
				stepsSent(emu, run("apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y git", "root"),
					forced, run("ls /home/user/cookbook")),
				layersCached(emu, true, true, true, false, false))},
		},
	})
}

// TestAccTemplateE2BEditedFileRebuilds: a file step's files are read at plan time, so editing a
// file (the configuration unchanged) plans a rebuild, and E2B rebuilds from that step on.
func TestAccTemplateE2BEditedFileRebuilds(t *testing.T) {
	emu := e2bEmulator(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "start.sh")
	write := func(content string) func() {
		return func() {
			if err := os.WriteFile(script, []byte(content), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("#!/bin/sh\necho one\n")()
	config := e2bTemplate(emu, ciBody+fmt.Sprintf(`
  steps = [
    { apt = { packages = ["jq"] } },
    { file = { source = %q, destination = "/usr/local/bin/start.sh" } },
  ]
`, script))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: layersCached(emu, false, false, false, false)},
			{Config: config, PreConfig: write("#!/bin/sh\necho two\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(resourceName, tfjsonpath.New("build_id"))}},
				Check: resource.ComposeTestCheckFunc(buildsAre(emu, 2), layersCached(emu, true, true, true, false))},
			{Config: config, PlanOnly: true}, // the same files: nothing to do
		},
	})
}

// TestAccTemplateE2BServerThatRefusesSteps: some E2B-compatible servers build only from an image or
// template and answer a start with steps 400 "steps are not supported": the apply says so and names
// the first step, which that server cannot build.
func TestAccTemplateE2BServerThatRefusesSteps(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey, RefuseSteps: true})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, ciBody+`  steps = [{ apt = { packages = ["ffmpeg"] } }, { user = "analyst" }]`),
			ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD.*steps are not supported.*` +
				words(`this server does not build steps, so it cannot build steps[0] (apt ffmpeg) (the first of 2)`).String()),
		}},
	})
}

// TestAccTemplateE2BFailedStepIsNamed: E2B reports a failure by its step number; the error names the
// configuration's step behind it.
func TestAccTemplateE2BFailedStepIsNamed(t *testing.T) {
	failsAt(t, e2bTemplate(e2bEmulator(t), pyBody+`
  packages = ["numpy"]
  steps = [{ npm = { packages = ["typescript"] } }]
`), "TEMPLATE_BUILD", `step 2, steps[0] (npm typescript): failed to run command 'npm install typescript': exit status 127`)
}

// TestAccTemplateE2BReadyCheckAndMinFreeDisk: ready_check renders as the SDK's wait helper, and
// min_free_disk_mb is sent at registration as the SDK 2.51 sends minFreeDiskMb.
func TestAccTemplateE2BReadyCheckAndMinFreeDisk(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bTemplate(emu, `
  image            = "python:3.12-slim"
  start_cmd        = "python -m http.server 8000"
  ready_check      = { url = "http://localhost:8000/health" }
  min_free_disk_mb = 2048
`),
			Check: func(*terraform.State) error {
				start, err := lastStart(emu)
				if err != nil {
					return err
				}
				if want := `curl -s -o /dev/null -w "%{http_code}" http://localhost:8000/health | grep -q "200"`; *start.ReadyCmd != want {
					return fmt.Errorf("readyCmd = %s, want %s", *start.ReadyCmd, want)
				}
				if info, _ := emu.Template("py"); info.Builds[0].MinFreeDiskMB == nil || *info.Builds[0].MinFreeDiskMB != 2048 {
					return fmt.Errorf("minFreeDiskMb = %v, want 2048", info.Builds[0].MinFreeDiskMB)
				}
				return nil
			},
		}},
	})
}
