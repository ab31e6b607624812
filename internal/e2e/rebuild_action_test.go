package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// rebuildPy is the rebuild action for template py of a plain Python image.
const rebuildPy = `
action "sandbox_template_rebuild" "py" {
  config {
    backend     = "e2b"
    template_id = "py"
    image       = "python:3.12-slim"
    start_cmd   = ""
  }
}
`

// TestRebuildActionStreamsProgress invokes the sandbox_template_rebuild action with
// `terraform apply -invoke`: it forces a build of an existing template (caches bypassed) and the
// CLI shows the action's progress messages.
func TestRebuildActionStreamsProgress(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	emu.SeedReadyTemplate("py")
	c.write("main.tf", provider+rebuildPy)

	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("apply -invoke: %v\n%s", err, out)
	}
	starts := emu.BuildStarts()
	if len(starts) != 1 || starts[0].Body.Force == nil || !*starts[0].Body.Force {
		t.Fatalf("want one forced build, got %+v\n%s", starts, out)
	}
	// In order: the action's own steps, then the build log's lines (the emulator's, as E2B reports
	// them) as they come, then the outcome.
	rest := out
	for _, progress := range []string{
		"rebuilding e2b template py, bypassing build caches",
		"e2b template py registered; building",
		"from image python:3.12-slim",
		"Template is ready",
		"SUCCESS",
		"Action complete",
	} {
		i := strings.Index(rest, progress)
		if i < 0 {
			t.Fatalf("the CLI output lacks the progress message %q after the ones before it:\n%s", progress, out)
		}
		rest = rest[i+len(progress):]
	}
}

// TestRebuildActionFailureFailsTheApply: a failed rebuild fails `apply -invoke` with its stage.
func TestRebuildActionFailureFailsTheApply(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	emu.FailBuild("py", "pip install failed")
	c.write("main.tf", provider+rebuildPy)

	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
	if err == nil {
		t.Fatalf("a failed rebuild must fail the apply:\n%s", out)
	}
	if !strings.Contains(out, "Template rebuild failed at stage TEMPLATE_BUILD") || !strings.Contains(out, "pip install failed") {
		t.Errorf("the error must name the stage and the reason:\n%s", out)
	}
}

// TestRebuildActionFromTrigger: an action_trigger runs the rebuild after the resource it sits on is
// updated, here when a base image's digest changes under the same tag, and the apply shows its progress.
func TestRebuildActionFromTrigger(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	emu.SeedReadyTemplate("py")
	c.write("main.tf", provider+rebuildPy+`
variable "digest" {
  type = string
}

resource "terraform_data" "base_image_digest" {
  input = var.digest

  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.sandbox_template_rebuild.py]
    }
  }
}
`)

	if out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color", "-var=digest=sha256:aaa"); err != nil {
		t.Fatalf("first apply: %v\n%s", err, out)
	}
	if n := len(emu.BuildStarts()); n != 0 {
		t.Fatalf("creating the trigger's resource started %d builds, want none (the trigger is after_update)", n)
	}
	out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color", "-var=digest=sha256:bbb")
	if err != nil {
		t.Fatalf("second apply: %v\n%s", err, out)
	}
	if starts := emu.BuildStarts(); len(starts) != 1 || starts[0].Body.Force == nil || !*starts[0].Body.Force {
		t.Fatalf("want one forced build after the digest changed, got %+v\n%s", starts, out)
	}
	if !strings.Contains(out, "rebuilding e2b template py, bypassing build caches") || !strings.Contains(out, "from image python:3.12-slim") {
		t.Errorf("the apply does not show the rebuild's progress:\n%s", out)
	}
}

// TestRebuildActionPassesRegistryCredentials: the action's registry password, from a sensitive
// variable, reaches E2B's build request for a private image and is masked in the CLI's output.
func TestRebuildActionPassesRegistryCredentials(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	c.write("main.tf", provider+`
action "sandbox_template_rebuild" "py" {
  config {
    backend     = "e2b"
    template_id = "py"
    image       = "registry.example.com/team/py:1"
    start_cmd   = ""
    registry_auth = {
      basic = {
        username = "ci"
        password = var.registry_password
      }
    }
  }
}

variable "registry_password" {
  type      = string
  sensitive = true
}
`)
	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color",
		"-var=registry_password=registry-secret")
	if err != nil {
		t.Fatalf("apply -invoke: %v\n%s", err, out)
	}
	if strings.Contains(out, "registry-secret") {
		t.Errorf("the CLI output shows the registry password:\n%s", out)
	}
	starts := emu.BuildStarts()
	if len(starts) != 1 || starts[0].Body.FromImageRegistry == nil {
		t.Fatalf("want one build with registry credentials, got %+v", starts)
	}
	if got := *starts[0].Body.FromImageRegistry; got.Type != "registry" || got.Username != "ci" || got.Password != "registry-secret" {
		t.Errorf("registry credentials sent = %+v, want the general registry login ci / registry-secret", got)
	}
}

// TestRebuildActionStreamsOpenSandboxProgress: the OpenSandbox build's steps (builder sandbox,
// packages, snapshot) reach the CLI while the action runs, as E2B's build log does.
func TestRebuildActionStreamsOpenSandboxProgress(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	osb := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: "e2e-key"})
	c.write("main.tf", fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = "e2e-key"
  }
}

action "sandbox_template_rebuild" "py" {
  config {
    backend     = "opensandbox"
    template_id = "py"
    image       = "opensandbox/code-interpreter:v1.1.0"
    packages    = ["numpy"]
  }
}
`, osb.URL))
	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("apply -invoke: %v\n%s", err, out)
	}
	rest := out
	for _, progress := range []string{"builder sandbox", "pip install", "snapshot py", "is Ready", "SUCCESS", "Action complete"} {
		i := strings.Index(rest, progress)
		if i < 0 {
			t.Fatalf("the CLI output lacks the progress message %q after the ones before it:\n%s", progress, out)
		}
		rest = rest[i+len(progress):]
	}
}

// TestRebuildActionOfACandidate: a rebuild with candidate = true registers its build without
// `default`, so the plain name keeps the build it had, and with the action's tags.
func TestRebuildActionOfACandidate(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	emu.SeedReadyTemplate("py")
	c.write("main.tf", provider+strings.Replace(rebuildPy, `start_cmd   = ""`, `start_cmd   = ""
    candidate   = true
    tags        = ["git-abc"]`, 1))

	out, err := c.run("apply", "-invoke=action.sandbox_template_rebuild.py", "-auto-approve", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("apply -invoke: %v\n%s", err, out)
	}
	info, _ := emu.Template("py")
	rebuilt := info.Builds[len(info.Builds)-1]
	if rebuilt.Status != "ready" || slices.Contains(rebuilt.Tags, "default") || !slices.Contains(rebuilt.Tags, "git-abc") {
		t.Errorf("the candidate's rebuild = %+v, want ready, tagged git-abc and not default", rebuilt)
	}
	if !slices.Contains(info.ReadyTags, "default") || info.Builds[0].BuildID == rebuilt.BuildID {
		t.Errorf("template = %+v, want default still on the seeded build", info)
	}
}
