package e2e

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// rebuildWithClone is the rebuild action of template py on backend, with a git_clone whose URL
// carries the sensitive token.
func rebuildWithClone(provider, backend string) string {
	image := `image       = "opensandbox/code-interpreter:v1.1.0"`
	if backend == "e2b" {
		image = `image       = "python:3.12"
    start_cmd   = ""`
	}
	return provider + tokenVariable + `
action "sandbox_template_rebuild" "py" {
  config {
    backend     = "` + backend + `"
    template_id = "py"
    ` + image + `
    steps       = [{ git_clone = { url = "` + cloneURL + `" } }]
  }
}
`
}

// TestRebuildActionStreamHidesCloneTokens: the rebuild action streams the build as it runs; the
// clone's token (from a sensitive variable, which the provider is not told of) shows redacted in
// OpenSandbox's command line and git's echo of it, and in E2B's failure, which names the step.
func TestRebuildActionStreamHidesCloneTokens(t *testing.T) {
	t.Run("opensandbox", func(t *testing.T) {
		c := newCLI(t)
		c.skipBelow114("actions")
		c.withToken()
		provider := newOpenSandbox(t, opensandboxemu.Options{Programs: echoingClone})
		c.write("main.tf", rebuildWithClone(provider, "opensandbox"))
		out := c.mustRun("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
		if !strings.Contains(out, "$ git clone "+redactedClone) || !strings.Contains(out, "from "+redactedClone) || !strings.Contains(out, "SUCCESS") {
			t.Errorf("the stream lacks the clone's command and output, its token redacted:\n%s", out)
		}
	})
	t.Run("e2b", func(t *testing.T) {
		c := newCLI(t)
		c.skipBelow114("actions")
		c.withToken()
		emu, provider := newE2B(t)
		emu.SeedReadyTemplate("py")
		emu.FailBuildAt("py", "failed to run command 'git clone "+tokenClone+"': exit status 128", "1")
		c.write("main.tf", rebuildWithClone(provider, "e2b"))
		out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
		if err == nil || !strings.Contains(out, "Template rebuild failed at stage TEMPLATE_BUILD") || !strings.Contains(out, "git_clone "+redactedClone) ||
			!strings.Contains(out, "Build failed: failed to run command 'git clone "+redactedClone) {
			t.Errorf("the rebuild must fail naming the step, and stream E2B's log line, the token redacted: %v\n%s", err, out)
		}
		c.noToken("the failed rebuild", out)
	})
}
