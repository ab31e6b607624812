package e2e

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestInterruptedCheckEndsItsSandbox sends SIGINT to the CLI while a check's command runs (a
// server run in the foreground never ends). The provider stops waiting, deletes the check's
// sandbox although its context is cancelled, and records no check; the CLI exits on the first
// interrupt.
func TestInterruptedCheckEndsItsSandbox(t *testing.T) {
	c := newCLI(t)
	osb := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: "e2e-key"})
	c.write("main.tf", fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = "e2e-key"
  }
}

resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
  image       = "python:3.12"
  start_cmd   = ""
}

resource "sandbox_template_check" "smoke" {
  template_ref       = sandbox_template.py.template_ref
  sandbox_entrypoint = sandbox_template.py.sandbox_entrypoint
  commands           = [{ run = "python3 -m http.server 8000" }]
}
`, osb.URL))

	// A generous bound: it only keeps a broken check from hanging the suite; promptness is
	// asserted by the CLI exiting on the first interrupt while the command still runs.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := c.command(ctx, "apply", "-auto-approve", "-input=false", "-no-color")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	checkRuns := func() bool {
		return slices.ContainsFunc(osb.Sandboxes(), func(sb opensandboxemu.Sandbox) bool {
			return sb.Metadata["sandboxtf-role"] == "template-check" && len(sb.Commands) > 0
		})
	}
	waitFor(t, ctx, checkRuns)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the CLI did not exit after SIGINT:\n%s", out.String())
	}
	if err == nil || !strings.Contains(out.String(), "CANCELLED") {
		t.Fatalf("an interrupted check must fail, saying it was cancelled:\n%s", out.String())
	}
	for _, sb := range osb.Sandboxes() {
		if !sb.Deleted {
			t.Errorf("sandbox %s (metadata %v) still runs after the interrupt", sb.ID, sb.Metadata)
		}
	}
	if _, recorded := c.stateInstances()["sandbox_template_check.smoke"]; recorded {
		t.Errorf("an interrupted check is in state:\n%s", out.String())
	}
}

// TestInterruptedE2BCheckEndsItsSandbox: the same on E2B, whose check runs its command through
// envd: after SIGINT the sandbox is killed (DELETE /sandboxes/{id}), the check is not recorded, and
// prod, whose target is the check's build_id, does not exist.
func TestInterruptedE2BCheckEndsItsSandbox(t *testing.T) {
	c := newCLI(t)
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: "e2e-key"})
	c.write("main.tf", fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url     = %q
    api_key     = "e2e-key"
    sandbox_url = %q
  }
}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
  candidate   = true
}

resource "sandbox_template_check" "smoke" {
  template_ref = sandbox_template.py.build_ref
  commands     = [{ run = "sleep infinity" }]
}

resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = sandbox_template.py.template_id
  tag         = "prod"
  target      = sandbox_template_check.smoke.build_id
}
`, emu.URL, emu.URL))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out bytes.Buffer
	cmd := c.command(ctx, "apply", "-auto-approve", "-input=false", "-no-color")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, func() bool { return emu.CountRequests("POST", "/process.Process/Start") > 0 })
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the CLI did not exit after SIGINT:\n%s", out.String())
	}
	if err == nil || !strings.Contains(out.String(), "CANCELLED") {
		t.Fatalf("an interrupted check must fail, saying it was cancelled:\n%s", out.String())
	}
	if running := emu.Sandboxes(); len(running) > 0 {
		t.Errorf("sandboxes still run after the interrupt: %+v", running)
	}
	instances := c.stateInstances()
	for _, addr := range []string{"sandbox_template_check.smoke", "sandbox_template_tag.prod"} {
		if _, recorded := instances[addr]; recorded {
			t.Errorf("%s is in state after an interrupted check:\n%s", addr, out.String())
		}
	}
}
