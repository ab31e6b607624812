package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Acceptance tests of what the real servers do where the outcome changes (issue 19): the emulators
// model E2B (e2b-dev/infra) and OpenSandbox from their source, and the provider reports each case
// at the right stage, with the server's own words.

// failsAt applies config once and expects the build to fail at stage, its error saying each of
// says in this order, however the CLI wraps its lines.
func failsAt(t *testing.T, config string, stage builders.Stage, says ...string) {
	pattern := `(?s)Template build failed at stage ` + string(stage)
	for _, s := range says {
		pattern += ".*" + words(s).String()
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps:                    []resource.TestStep{{Config: config, ExpectError: expectError(pattern)}},
	})
}

// TestAccTemplateE2BBaseTemplateThatCannotBeUsed: E2B answers the start of a build from a missing
// base template, one with no ready build, or another team's private one with 202, then fails it at
// step base (template-manager/create_template.go); the apply fails with E2B's reason.
func TestAccTemplateE2BBaseTemplateThatCannotBeUsed(t *testing.T) {
	for _, tt := range []struct{ base, want string }{
		{"missing-base", `template 'missing-base' not found`},
		{"half", `tag 'default' does not exist for template 'emulator/half'`},
		{"theirs", `template 'theirs' not found`},
	} {
		t.Run(tt.base, func(t *testing.T) {
			emu := e2bEmulator(t)
			emu.SeedFailedTemplate("half", "no space left on device")
			emu.SeedForeignTemplate("theirs", false)
			failsAt(t, e2bTemplate(emu, fmt.Sprintf(`  base_template = %q`, tt.base)), builders.StageTemplateBuild, "step base: "+tt.want)
		})
	}
}

// TestAccTemplateE2BImagePullFailures: E2B's orchestrator reports an image it could not pull in its
// own words (core/oci/oci.go); the provider reports them at IMAGE_PULL. The emulator's private
// registry lets only its login pull.
func TestAccTemplateE2BImagePullFailures(t *testing.T) {
	login := func(password string) string {
		return fmt.Sprintf(`
  start_cmd = "" # the image has no E2B start script
  registry_auth = {
    basic = {
      username = %q
      password = %q
    }
  }`, e2bemu.PrivateRegistryUser, password)
	}
	for _, tt := range []struct{ name, body, want string }{
		{"no login", `  image = "registry.test/team/app:1"`,
			`access denied to 'registry.test/team/app:1': authentication required or insufficient permissions`},
		{"a wrong login", `  image = "registry.test/team/app:1"` + login("guess"),
			`access denied to 'registry.test/team/app:1'`},
		{"a missing repository", `  image = "registry.test/team/gone:1"` + login(e2bemu.PrivateRegistryPassword),
			`repository 'registry.test/team/gone:1' not found: verify the image name is correct`},
		{"a missing tag", `  image = "registry.test/team/app:2"` + login(e2bemu.PrivateRegistryPassword),
			`image 'registry.test/team/app:2' not found: the image or tag does not exist in the registry`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			failsAt(t, e2bTemplate(e2bEmulator(t), tt.body), builders.StageImagePull, tt.want)
		})
	}
}

// TestAccTemplateE2BTeamSizingMaximum: a size within E2B's rules but above the team's maximum is a
// 400 at registration (team/limits.go), reported at TEMPLATE_CREATE with E2B's message.
func TestAccTemplateE2BTeamSizingMaximum(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey, TeamLimits: e2bemu.TeamLimits{MaxCPU: 4, MaxMemoryMB: 4096}})
	failsAt(t, e2bTemplate(emu, pyBody+`
  cpu_count = 8
`), builders.StageTemplateCreate, "CPU count can't be higher than 4 (if you need to increase this limit, please contact support)")
}

// openSandboxEmulator starts an OpenSandbox emulator without touching the process environment, so
// the test can run in parallel: its HCL sets domain and api_key.
func openSandboxEmulator(t *testing.T) *opensandboxemu.Server {
	return opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: testOpenSandboxAPIKey})
}

// TestAccTemplateOpenSandboxInstallOnAnImageWithoutPython: execd runs the install with bash, which
// finds no python3 in ubuntu (execd/pkg/runtime/command.go): the build fails at TEMPLATE_BUILD
// naming the command, exit code 127 and what bash said.
func TestAccTemplateOpenSandboxInstallOnAnImageWithoutPython(t *testing.T) {
	failsAt(t, openSandboxConfig(openSandboxEmulator(t), nil, `
  image     = "ubuntu:24.04"
  start_cmd = ""
  packages  = ["numpy"]
`), builders.StageTemplateBuild, "`python3 -m pip install --no-input --disable-pip-version-check 'numpy'` failed with exit code 127",
		"the image has no python3", "bash: line 1: python3: command not found")
}

// openSandboxAPI sends a lifecycle API request to the emulator, as a consumer of the template would.
func openSandboxAPI(osb *opensandboxemu.Server, method, path string, body any, out any) error {
	payload, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, osb.LifecycleURL()+path, bytes.NewReader(payload))
	req.Header.Set("OPEN-SANDBOX-API-KEY", testOpenSandboxAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// TestAccTemplateOpenSandboxDestroyWhileARestoredSandboxRuns: OpenSandbox cannot delete a snapshot
// a restored sandbox uses (409 SNAPSHOT::DELETE_CONFLICT, snapshot_service.py); destroy fails at
// once naming that sandbox, instead of waiting out its timeout as for a snapshot still Creating,
// and succeeds once the sandbox is gone.
func TestAccTemplateOpenSandboxDestroyWhileARestoredSandboxRuns(t *testing.T) {
	osb := openSandboxEmulator(t)
	config := openSandboxConfig(osb, nil, `
  image     = "python:3.12-slim"
  start_cmd = ""
  timeouts  = { delete = "20s" }
`)
	var consumer struct{ ID string }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			for _, sn := range osb.Snapshots() {
				if !sn.Deleted {
					return fmt.Errorf("destroy left snapshot %s (%s)", sn.ID, sn.State)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					var snapshotID string
					for _, sn := range osb.Snapshots() {
						if sn.Name == "py" && sn.State == opensandboxemu.SnapshotReady && !sn.Deleted {
							snapshotID = sn.ID
						}
					}
					if err := openSandboxAPI(osb, http.MethodPost, "/sandboxes", map[string]any{"snapshotId": snapshotID,
						"resourceLimits": opensandbox.DefaultResourceLimits}, &consumer); err != nil {
						t.Fatal(err)
					}
				},
				Config:  config,
				Destroy: true,
				ExpectError: expectError(`(?s)` + words("is used by sandbox").String() + `\s+sbx-\d+,\s+` + words("restored from it").String() +
					".*" + words("then destroy again").String()),
			},
			{
				PreConfig: func() {
					if err := openSandboxAPI(osb, http.MethodDelete, "/sandboxes/"+consumer.ID, nil, nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:  config,
				Destroy: true,
			},
		},
	})
}

// TestAccTemplateOpenSandboxDeletesBuildersOfDeadRuns: a run killed mid-build leaves its builder
// sandbox running until its timeout; the next build of the template deletes it. A builder of a
// live process (a concurrent build) and one of another host stay.
func TestAccTemplateOpenSandboxDeletesBuildersOfDeadRuns(t *testing.T) {
	osb := openSandboxEmulator(t)
	exited := exec.Command(os.Args[0], "-test.run=^$")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	elsewhere := opensandbox.BuilderMetadata("py", "b-elsewhere", exited.Process.Pid)
	elsewhere["sandboxtf-host"] = "0123456789abcdef"
	seeded := map[string]map[string]string{
		"dead":      opensandbox.BuilderMetadata("py", "b-dead", exited.Process.Pid),
		"live":      opensandbox.BuilderMetadata("py", "b-live", os.Getpid()),
		"elsewhere": elsewhere,
	}
	ids := map[string]string{}
	for name, md := range seeded {
		var sb struct{ ID string }
		if err := openSandboxAPI(osb, http.MethodPost, "/sandboxes", map[string]any{"image": map[string]string{"uri": "python:3.12-slim"},
			"entrypoint": []string{"tail", "-f", "/dev/null"}, "resourceLimits": opensandbox.DefaultResourceLimits,
			"timeout": 2399, "metadata": md}, &sb); err != nil {
			t.Fatal(err)
		}
		ids[name] = sb.ID
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, nil, `
  image     = "python:3.12-slim"
  start_cmd = ""
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS"))},
			Check: func(*terraform.State) error {
				deleted := map[string]bool{}
				for _, sb := range osb.Sandboxes() {
					deleted[sb.ID] = sb.Deleted
				}
				if !deleted[ids["dead"]] || deleted[ids["live"]] || deleted[ids["elsewhere"]] {
					return fmt.Errorf("builders deleted: dead run's %v, live process's %v, another host's %v; want only the dead run's",
						deleted[ids["dead"]], deleted[ids["live"]], deleted[ids["elsewhere"]])
				}
				return nil
			},
		}},
	})
}
