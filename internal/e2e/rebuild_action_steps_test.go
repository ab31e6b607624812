package e2e

import (
	"strings"
	"testing"
)

// TestRebuildActionTakesSteps: the rebuild action takes the resource's steps and ready check, so a
// rebuild of a template with steps builds the same steps, and a bad step fails before any request.
func TestRebuildActionTakesSteps(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	emu.SeedReadyTemplate("py")
	action := func(step string) string {
		return provider + `
action "sandbox_template_rebuild" "py" {
  config {
    backend     = "e2b"
    template_id = "py"
    image       = "python:3.12-slim"
    start_cmd   = "python -m http.server 8000"
    ready_check = { port = 8000 }
    steps       = [` + step + `]
  }
}
`
	}
	c.write("main.tf", action(`{ apt = { packages = ["lib gl"] } }`))
	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
	if err == nil || !strings.Contains(out, `steps[0].apt.packages[0]: "lib gl" is not a Debian package name`) || len(emu.BuildStarts()) != 0 {
		t.Fatalf("a bad step must fail the action before any build: %v\n%s", err, out)
	}
	c.write("main.tf", action(`{ apt = { packages = ["ffmpeg"] } }`))
	if out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply -invoke: %v\n%s", err, out)
	}
	starts := emu.BuildStarts()
	if len(starts) != 1 || len(starts[0].Body.Steps) != 1 || starts[0].Body.Steps[0].Args[0] !=
		"apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y ffmpeg" ||
		*starts[0].Body.ReadyCmd != `[ -n "$(ss -Htuln sport = :8000)" ]` {
		t.Fatalf("want the action's step and ready check in the build, got %+v", starts)
	}
}
