package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccTemplateRejectsBadStepsAtPlan: every step, the ready check and min_free_disk_mb are
// checked at plan time; a problem points at the step (the CLI shows that step's lines) and names
// the field inside it. Nothing reaches the backend.
func TestAccTemplateRejectsBadStepsAtPlan(t *testing.T) {
	for _, tt := range []struct{ name, body, errors string }{
		{"two kinds in one step", `steps = [
    { run = { command = "true" } },
    { workdir = "/app", user = "analyst" },
  ]`, `(?s)Invalid steps\[1\].*workdir = "/app", user = "analyst".*set exactly one of run, apt, pip, npm, env,\s+workdir, user,\s+git_clone, file in each step, got workdir and user`},
		{"an empty step", `steps = [{}]`, `(?s)Invalid steps\[0\].*got none`},
		{"an apt package with a space", `steps = [
    { apt = { packages = ["ffmpeg", "lib gl"] } },
  ]`, `(?s)Invalid steps\[0\]\.apt\.packages\[1\].*apt = \{ packages = \["ffmpeg", "lib gl"\] \}.*"lib gl" is not a Debian package name`},
		{"a pip option", `steps = [{ pip = { packages = ["--index-url=https://evil"] } }]`, `(?s)steps\[0\]\.pip\.packages\[0\].*pip reads as one of its own options`},
		{"no packages", `steps = [{ npm = { packages = [] } }]`, `(?s)steps\[0\]\.npm\.packages: must list at least one package`},
		{"an env name", `steps = [{ env = { "MY-VAR" = "1" } }]`, `(?s)steps\[0\]\.env: "MY-VAR" is not an environment variable name`},
		{"a user name", `steps = [{ user = "Analyst; rm -rf /" }]`, `(?s)steps\[0\]\.user: "Analyst; rm -rf /" is not a user name`},
		{"a workdir the server would expand", `steps = [{ workdir = "/home/$USER" }]`, `(?s)steps\[0\]\.workdir: "/home/\$USER" contains one of`},
		{"a git option for a url", `steps = [{ git_clone = { url = "--upload-pack=touch /x" } }]`, `(?s)steps\[0\]\.git_clone\.url:.*starts with "-"`},
		{"a missing file", `steps = [{ file = { source = "/nonexistent/config.py", destination = "/etc/app/" } }]`,
			`(?s)Invalid steps\[0\]\.file\.source.*/nonexistent/config\.py: no such file or directory`},
		{"source and content", `steps = [{ file = { source = "/etc/hostname", content = "x", destination = "/x" } }]`, `(?s)steps\[0\]\.file\.content: set source or content, not both`},
		{"a file mode", `steps = [{ file = { content = "x", destination = "/x", mode = "rwx" } }]`, `(?s)steps\[0\]\.file\.mode: "rwx" is not an octal file mode`},
		{"two ready checks", `ready_check = { port = 8000, file = "/tmp/ready" }`, `(?s)Invalid ready_check.*set exactly one of port, url, process, file or timeout`},
		{"ready_check and ready_cmd", `ready_cmd = "true"
  ready_check = { port = 8000 }`, `(?s)Invalid ready_check.*set ready_check or ready_cmd, not both`},
		{"a ready timeout", `ready_check = { timeout = "soon" }`, `(?s)ready_check\.timeout: "soon" is not a positive duration`},
		{"a negative disk minimum", `min_free_disk_mb = -1`, `(?s)min_free_disk_mb.*value must be at least 0, got: -1`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{{Config: e2bTemplate(e2bEmulator(t), ciBody+"  "+tt.body+"\n"), PlanOnly: true,
					ExpectError: expectError(tt.errors)}},
			})
		})
	}
	t.Run("opensandbox takes env values as written", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: protoV6ProviderFactories,
			Steps: []resource.TestStep{{Config: openSandboxConfig(openSandboxEmulator(t), nil, `
  image = "opensandbox/code-interpreter:v1.1.0"
  steps = [{ env = { PATH = "/opt/tool/bin:$PATH" } }]
`), PlanOnly: true, ExpectError: expectError(`(?s)Invalid steps\[0\]\.env.*` + words(`PATH: its value holds "$", but OpenSandbox passes env values as written`).String())}},
		})
	})
}
