package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestTemplateTagManagedByTwoConfigurationsWarnsEachTime: a pipeline's template tagged stable and,
// in a second working directory, a sandbox_template_tag of the same name pointing at another build
// move stable back and forth, each apply without a build; each apply of the pipeline warns, naming
// the tag, the build the other configuration moved it to, and the conflict (issue 31).
func TestTemplateTagManagedByTwoConfigurationsWarnsEachTime(t *testing.T) {
	pipeline, promotion := newCLI(t), newCLI(t)
	emu, provider := newE2B(t)
	template := func(pkg string) string {
		return provider + fmt.Sprintf(`
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
  packages    = [%q]
  tags        = ["stable"]
}
`, pkg)
	}
	apply := func(c *cli) string {
		t.Helper()
		out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("apply: %v\n%s", err, out)
		}
		return strings.Join(strings.Fields(out), " ")
	}
	pipeline.write("main.tf", template("pkg-a"))
	apply(pipeline)
	pipeline.write("main.tf", template("pkg-b"))
	apply(pipeline)
	info, _ := emu.Template("py")
	older, recorded := info.Builds[0].BuildID, info.Builds[1].BuildID
	promotion.write("main.tf", provider+fmt.Sprintf(`
resource "sandbox_template_tag" "stable" {
  backend     = "e2b"
  template_id = "py"
  tag         = "stable"
  target      = %q
}
`, older))

	for round := 1; round <= 2; round++ {
		apply(promotion)
		if got := servedBy(t, emu, "py:stable"); got != older {
			t.Fatalf("round %d: after the promotion's apply, py:stable starts %s, want %s", round, got, older)
		}
		out := apply(pipeline)
		for _, want := range []string{
			fmt.Sprintf(`Tag "stable" of template "py" starts build %s, not build %s that this resource records`, older, recorded),
			"another configuration (a sandbox_template_tag of the same name", "let only one of them manage it",
			"Resources: 0 added, 1 changed, 0 destroyed",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("round %d: the pipeline's apply does not say %q:\n%s", round, want, out)
			}
		}
		if got := servedBy(t, emu, "py:stable"); got != recorded {
			t.Errorf("round %d: after the pipeline's apply, py:stable starts %s, want %s", round, got, recorded)
		}
	}
	if n := len(emu.BuildStarts()); n != 2 {
		t.Errorf("%d builds started, want the pipeline's 2: moving tags builds nothing", n)
	}
}

// servedBy is the build a sandbox of ref starts from, "" when none.
func servedBy(t *testing.T, emu *e2bemu.Server, ref string) string {
	t.Helper()
	served, _ := emu.ServedBuild(ref)
	return served.BuildID
}
