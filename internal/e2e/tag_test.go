package e2e

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// pyWithTag is a template py tagged v1 and a tag resource named tag pointing at target.
func pyWithTag(tag, target string) string {
	return `
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
  tags        = ["v1"]
  candidate   = true
}

resource "sandbox_template_tag" "t" {
  backend     = "e2b"
  template_id = sandbox_template.py.template_id
  tag         = "` + tag + `"
  target      = "` + target + `"
}
`
}

// TestTagMovedByHandIsNamedInThePlan: a tag someone moved outside Terraform (E2B's SDK:
// Template.assignTags) makes the next plan warn, naming both builds, and point it back.
func TestTagMovedByHandIsNamedInThePlan(t *testing.T) {
	c := newCLI(t)
	emu, provider := newE2B(t)
	c.write("main.tf", provider+pyWithTag("prod", "v1"))
	if out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	emu.SeedReadyTemplate("py") // a newer build, tagged default
	assignTag(t, emu, "py:default", "prod")

	out, err := c.run("plan", "-input=false", "-no-color")
	if err != nil {
		t.Fatalf("plan: %v\n%s", err, out)
	}
	for _, want := range []string{"Tag moved", "it was moved outside Terraform", "sandbox_template_tag.t will be updated in-place"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
}

// TestDestroyingTheLiveTagKeepsIt: the plan that destroys a tag resource managing `default` says
// the tag stays, and the apply leaves it where it points: E2B refuses to remove it.
func TestDestroyingTheLiveTagKeepsIt(t *testing.T) {
	c := newCLI(t)
	emu, provider := newE2B(t)
	c.write("main.tf", provider+pyWithTag("default", "v1"))
	if out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	c.write("main.tf", provider+strings.Split(pyWithTag("default", "v1"), `resource "sandbox_template_tag"`)[0])
	out, err := c.run("apply", "-auto-approve", "-input=false", "-no-color")
	if err != nil || !strings.Contains(strings.Join(strings.Fields(out), " "), "Destroying py:default leaves the tag where it points") {
		t.Fatalf("apply that destroys the default tag's resource: %v, want a warning that it stays:\n%s", err, out)
	}
	if info, _ := emu.Template("py"); len(info.ReadyTags) == 0 || info.ReadyTags[0] != "default" {
		t.Errorf("template = %+v, want default still on its build", info)
	}
}

// assignTag points tag at the build target names, as E2B's SDK does.
func assignTag(t *testing.T, emu *e2bemu.Server, target, tag string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"target": target, "tags": []string{tag}})
	req, _ := http.NewRequest(http.MethodPost, emu.URL+"/templates/tags", bytes.NewReader(body))
	req.Header.Set("X-API-Key", "e2e-key")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("moving %s to %s: %v %v", tag, target, err, resp)
	}
	_ = resp.Body.Close()
}
