package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// execdCalls checks what the builder sandbox's execd received, in order: "cmd[<cwd> <uid>] <command>"
// ("start[...]" when sent detached: the start command), "mkdir <path> <owner>:<group> <mode>" or
// "upload <path> <owner>:<group> <mode> <content>".
func execdCalls(osb *opensandboxemu.Server, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sandboxes := osb.Sandboxes()
		if len(sandboxes) != 1 {
			return fmt.Errorf("%d builder sandboxes, want 1", len(sandboxes))
		}
		var got []string
		for _, c := range sandboxes[0].Calls {
			switch {
			case c.Command != nil:
				uid := "root"
				if c.Command.UID != nil {
					uid = strconv.FormatUint(uint64(*c.Command.UID), 10)
				}
				kind := "cmd"
				if c.Command.Background {
					kind = "start"
				}
				got = append(got, fmt.Sprintf("%s[%s %s] %s", kind, c.Command.Cwd, uid, c.Command.Command))
			case c.MakeDir != nil:
				got = append(got, fmt.Sprintf("mkdir %s %s:%s %d", c.MakeDir.Path, c.MakeDir.Owner, c.MakeDir.Group, c.MakeDir.Mode))
			default:
				got = append(got, fmt.Sprintf("upload %s %s:%s %d %s", c.Upload.Path, c.Upload.Owner, c.Upload.Group, c.Upload.Mode, c.Upload.Content))
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("execd calls:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		return nil
	}
}

// TestAccTemplateOpenSandboxStepKinds: each step kind runs in the builder sandbox through execd
// before the snapshot, as E2B runs it in its build sandbox: commands as their user, files through
// execd's upload, folders through its mkdir; the start command starts after them.
func TestAccTemplateOpenSandboxStepKinds(t *testing.T) {
	files := t.TempDir()
	if err := os.WriteFile(filepath.Join(files, "settings.json"), []byte(`{"theme":"dark"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// The code-interpreter image is ubuntu:24.04's, whose user ubuntu has uid 1000: analyst gets 1001.
	analyst := []string{"cmd[ root] getent passwd analyst", "cmd[ root] useradd --create-home --shell /bin/bash analyst", "cmd[ root] getent passwd analyst"}
	for _, tt := range []struct {
		kind, steps string
		want        []string
	}{
		{"run", `{ run = { command = "python3 -c 'print(1)'" } }`, []string{"cmd[ root] python3 -c 'print(1)'"}},
		{"apt", `{ apt = { packages = ["ffmpeg"] } }`,
			[]string{"cmd[ root] apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y ffmpeg"}},
		{"pip", `{ pip = { packages = ["pandas==2.2.3"] } }`,
			[]string{"cmd[ root] python3 -m pip install --no-input --disable-pip-version-check 'pandas==2.2.3'"}},
		{"npm", `{ npm = { packages = ["typescript@5"], global = true } }`, []string{"cmd[ root] npm install -g typescript@5"}},
		{"user", `{ user = "analyst" }, { run = { command = "git --version" } }`, append(analyst, "cmd[ 1001] git --version")},
		{"workdir", `{ workdir = "/srv/app" }, { run = { command = "true" } }`, []string{"mkdir /srv/app root:root 755", "cmd[/srv/app root] true"}},
		{"env", `{ env = { MPLBACKEND = "Agg" } }`, nil},
		{"git_clone", `{ git_clone = { url = "https://github.com/e2b-dev/e2b-cookbook", depth = 1, path = "/opt/cookbook" } }`,
			[]string{"cmd[ root] git clone https://github.com/e2b-dev/e2b-cookbook --depth 1 /opt/cookbook"}},
		{"file", fmt.Sprintf(`{ user = "analyst" }, { file = { source = %q, destination = "/home/analyst/.config/" } }`, filepath.Join(files, "settings.json")),
			append(analyst, `upload /home/analyst/.config/settings.json analyst:analyst 600 {"theme":"dark"}`)},
		{"file content", `{ file = { content = "x = 1\n", destination = "/opt/app/config.py", mode = "0644", owner = "root" } }`,
			[]string{"upload /opt/app/config.py root:root 644 x = 1\n"}},
	} {
		t.Run(tt.kind, func(t *testing.T) {
			osb := openSandboxEmulator(t)
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: openSandboxConfig(osb, nil, fmt.Sprintf(`
  image = "opensandbox/code-interpreter:v1.1.0"
  steps = [%s]
`, tt.steps)),
					Check: resource.ComposeTestCheckFunc(execdCalls(osb, append(tt.want, "start[ root] /opt/code-interpreter/code-interpreter.sh")...), func(*terraform.State) error {
						if n := readySnapshots(osb); n != 1 {
							return fmt.Errorf("%d ready snapshots, want 1", n)
						}
						return nil
					}),
				}},
			})
		})
	}
}

// TestAccTemplateOpenSandboxStepsContext: a snapshot keeps files only, so the environment, working
// directory and user the steps set are outputs, known at plan time, for whoever starts sandboxes;
// commands of later steps run with them (execd's envs, cwd and uid).
func TestAccTemplateOpenSandboxStepsContext(t *testing.T) {
	osb := openSandboxEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, nil, `
  image = "opensandbox/code-interpreter:v1.1.0"
  steps = [
    { env = { MPLBACKEND = "Agg", DATA_DIR = "/data" } },
    { user = "analyst" },
    { workdir = "/home/analyst/work" },
    { workdir = "notebooks" },
    { run = { command = "python3 -c 'import sys'" } },
  ]
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_env"),
					knownvalue.MapExact(map[string]knownvalue.Check{"MPLBACKEND": knownvalue.StringExact("Agg"), "DATA_DIR": knownvalue.StringExact("/data")})),
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_workdir"), knownvalue.StringExact("/home/analyst/work/notebooks")),
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_user"), knownvalue.StringExact("analyst")),
				plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("files_hash"), knownvalue.Null()),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_workdir"), knownvalue.StringExact("/home/analyst/work/notebooks")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_user"), knownvalue.StringExact("analyst")),
			},
			Check: func(*terraform.State) error {
				calls := osb.Sandboxes()[0].Calls
				last := calls[len(calls)-2].Command                                                                     // the run step; the start command follows it
				if last == nil || last.Cwd != "/home/analyst/work/notebooks" || last.UID == nil || *last.UID != 1001 || // ubuntu has 1000
					last.Envs["MPLBACKEND"] != "Agg" || last.Envs["HOME"] != "/home/analyst" {
					return fmt.Errorf("the run step ran with %+v, want the steps' cwd, uid, env and the user's HOME", last)
				}
				return nil
			},
		}},
	})
}

// TestAccTemplateOpenSandboxReadyCheckBeforeSnapshot: the ready command runs after the steps and
// must succeed before the snapshot is taken; one the image cannot run fails the build, and no
// snapshot is left.
func TestAccTemplateOpenSandboxReadyCheckBeforeSnapshot(t *testing.T) {
	t.Run("ready", func(t *testing.T) {
		osb := openSandboxEmulator(t)
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: protoV6ProviderFactories,
			Steps: []resource.TestStep{{
				Config: openSandboxConfig(osb, nil, `
  image       = "opensandbox/code-interpreter:v1.1.0"
  steps       = [{ file = { content = "ok", destination = "/tmp/ready" } }]
  ready_check = { file = "/tmp/ready" }
`),
				Check: execdCalls(osb, "upload /tmp/ready root:root 644 ok", "start[ root] /opt/code-interpreter/code-interpreter.sh", "cmd[ root] [ -f /tmp/ready ]"),
			}},
		})
	})
	t.Run("the image cannot run it", func(t *testing.T) {
		osb := openSandboxEmulator(t)
		failsAt(t, openSandboxConfig(osb, nil, `
  image       = "opensandbox/code-interpreter:v1.1.0"
  ready_check = { process = "jupyter-lab" }
`), "TEMPLATE_BUILD", "ready command: `pgrep jupyter-lab > /dev/null` failed with exit code 127", "the image has no pgrep")
		if len(osb.Snapshots()) != 0 {
			t.Errorf("a snapshot was taken although the ready command failed: %+v", osb.Snapshots())
		}
	})
}
