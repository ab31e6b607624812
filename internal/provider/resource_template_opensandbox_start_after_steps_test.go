package provider

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestAccTemplateOpenSandboxStartCmdRunsWhatAStepInstalled (issue 27, fix 2): the start command
// starts after the steps, so it can run what a step installed; given as the builder sandbox's
// entrypoint it started before them and its end ended the build. The snapshot holds the step's
// program, not the process, and a sandbox restored from it with sandbox_entrypoint and
// sandbox_env, as a consumer starts one, runs.
func TestAccTemplateOpenSandboxStartCmdRunsWhatAStepInstalled(t *testing.T) {
	osb := openSandboxEmulator(t)
	const startCmd = "cd /srv && uvicorn app:app --port $APP_PORT"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, nil, `
  image = "python:3.12"
  steps = [
    { pip = { packages = ["uvicorn"] } },
    { file = { content = "async def app(scope, receive, send): pass\n", destination = "/srv/app.py" } },
    { env = { APP_PORT = "8000" } },
  ]
  start_cmd   = "`+startCmd+`"
  ready_check = { url = "http://localhost:8000/" }
`),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(resourceName, "sandbox_entrypoint.#", "3"),
				resource.TestCheckResourceAttr(resourceName, "sandbox_entrypoint.2", startCmd),
				func(*terraform.State) error {
					builder := osb.Sandboxes()[0]
					if !slices.Equal(builder.Entrypoint, opensandbox.NeutralEntrypoint) {
						return fmt.Errorf("the builder sandbox ran %q, want the neutral entrypoint", builder.Entrypoint)
					}
					var sent []string
					for _, c := range builder.Commands {
						sent = append(sent, fmt.Sprintf("%v %s", c.Background, c.Command))
					}
					want := []string{"false python3 -m pip install --no-input --disable-pip-version-check 'uvicorn'",
						"true sh -c 'cd /srv && uvicorn app:app --port $APP_PORT'", `false curl -s -o /dev/null -w "%{http_code}" http://localhost:8000/ | grep -q "200"`}
					if !slices.Equal(sent, want) {
						return fmt.Errorf("commands (background, command):\n  %s\nwant the steps, the start command detached, then the ready check:\n  %s",
							strings.Join(sent, "\n  "), strings.Join(want, "\n  "))
					}
					if env := builder.Commands[1].Envs; env["APP_PORT"] != "8000" {
						return fmt.Errorf("the start command ran with %v, want sandbox_env", env)
					}
					return nil
				},
				restoredSandboxRuns(osb, []string{"sh", "-c", startCmd}, map[string]string{"APP_PORT": "8000"}),
			),
		}},
	})
}

// restoredSandboxRuns starts a sandbox from template py's snapshot as a consumer does (entrypoint
// and env from the template's outputs) and checks that it runs: its entrypoint finds what the
// steps installed in the snapshot.
func restoredSandboxRuns(osb *opensandboxemu.Server, entrypoint []string, env map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var snapshotID string
		for _, sn := range osb.Snapshots() {
			if sn.Name == "py" && sn.State == opensandboxemu.SnapshotReady && !sn.Deleted {
				snapshotID = sn.ID
			}
		}
		var consumer struct {
			ID     string
			Status struct{ State string }
		}
		if err := openSandboxAPI(osb, http.MethodPost, "/sandboxes", map[string]any{"snapshotId": snapshotID, "entrypoint": entrypoint,
			"env": env, "resourceLimits": opensandbox.DefaultResourceLimits}, &consumer); err != nil {
			return err
		}
		defer func() { _ = openSandboxAPI(osb, http.MethodDelete, "/sandboxes/"+consumer.ID, nil, nil) }()
		var got struct {
			Status struct{ State, Message string }
		}
		if err := openSandboxAPI(osb, http.MethodGet, "/sandboxes/"+consumer.ID, nil, &got); err != nil {
			return err
		}
		if got.Status.State != opensandboxemu.StateRunning {
			return fmt.Errorf("a sandbox restored from snapshot %s with entrypoint %q is %s (%s), want Running", snapshotID, entrypoint,
				got.Status.State, got.Status.Message)
		}
		return nil
	}
}
