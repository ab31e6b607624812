package e2e

import (
	"strings"
	"testing"
)

// TestRebuildActionIsCheckedAtPlan: the rebuild action's configuration meets the resource's
// rules before anything is invoked: `terraform validate` fails on each bad attribute (two
// credential kinds at once, a zero timeout), and no build starts.
func TestRebuildActionIsCheckedAtPlan(t *testing.T) {
	c := newCLI(t)
	c.skipBelow114("actions")
	emu, provider := newE2B(t)
	c.write("main.tf", provider+`
action "sandbox_template_rebuild" "py" {
  config {
    backend     = "e2b"
    template_id = "py"
    image       = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4"
    start_cmd   = ""
    timeout     = "0s"
    registry_auth = {
      basic = { username = "ci", password = "pw" }
      aws   = { access_key_id = "AKID", secret_access_key = "secret", region = "us-east-1" }
    }
  }
}
`)
	out, err := c.run("validate", "-no-color")
	if err == nil {
		t.Fatalf("validate accepted a bad action configuration:\n%s", out)
	}
	for _, want := range []string{`Invalid timeout`, `timeout must be a positive duration such as "45m" or "1h30m", got "0s"`,
		`registry_auth needs exactly one credential kind`, `got aws and basic`} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) { // however the CLI wraps it
			t.Errorf("validate's output lacks %q:\n%s", want, out)
		}
	}
	if n := len(emu.BuildStarts()); n != 0 {
		t.Errorf("%d builds started", n)
	}
}
