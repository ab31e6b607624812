package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccRejectsHostileInputsAtPlan: inputs no backend carries fail the plan on the attribute, with
// no request: a NUL in a run command or an env value, a disk minimum no 32-bit MiB size holds, and
// tags and tag targets too long or named after a folder. A newline in a run command or an env
// value is planned: both backends run commands with bash and carry values as they are.
func TestAccRejectsHostileInputsAtPlan(t *testing.T) {
	emu := e2bEmulator(t)
	template := func(body string) string { return e2bTemplate(emu, pyBody+body) }
	tag := func(tag, target string) string {
		return e2bProvider(emu) + fmt.Sprintf(`
resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = "py"
  tag         = %q
  target      = %q
}
`, tag, target)
	}
	long := strings.Repeat("v", 5000)
	steps := []struct{ config, want string }{
		{template(`  steps = [{ run = { command = "make\u0000install" } }]`),
			`(?s)Invalid steps\[0\].*` + words(`steps[0].run.command: must not contain a NUL character`).String()},
		{template(`  steps = [{ env = { TOKEN = "x\u0000y" } }]`),
			`(?s)Invalid steps\[0\].*` + words(`steps[0].env: the value of TOKEN must not contain a NUL character`).String()},
		{template(`  min_free_disk_mb = 1000000000000`),
			`(?s)Invalid min_free_disk_mb.*` + words(`must be at most 2147483647 (build APIs carry it as a 32-bit integer), got 1000000000000`).String()},
		{template(fmt.Sprintf(`  tags = [%q]`, long)), `(?s)Invalid tags.*is 5000 characters long: at most 128`},
		{template(`  tags = [".."]`), `(?s)Invalid tags.*` + words(`".." names this or the parent folder`).String()},
		{template(`  tags = ["."]`), `(?s)Invalid tags.*` + words(`"." names this or the parent folder`).String()},
		{template(`  tags = ["a/b"]`), `(?s)Invalid tags.*` + words(`"a/b" is not a valid E2B tag`).String()},
		{tag("..", "v1"), `(?s)Invalid tag.*` + words(`".." names this or the parent folder`).String()},
		{tag("prod", ".."), `(?s)Invalid target.*` + words(`".." names this or the parent folder`).String()},
		{tag("prod", long), `(?s)Invalid target.*is 5000 characters long: at most 128`},
	}
	var testSteps []resource.TestStep
	for _, s := range steps {
		testSteps = append(testSteps, resource.TestStep{Config: s.config, PlanOnly: true, ExpectError: expectError(s.want)})
	}
	testSteps = append(testSteps, resource.TestStep{PlanOnly: true, ExpectNonEmptyPlan: true, Config: template(`
  steps = [
    { run = { command = "set -e\nmake\nmake install" } },
    { env = { CERT = "-----BEGIN-----\nAAAA\n-----END-----" } },
  ]`)})
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: protoV6ProviderFactories, Steps: testSteps})
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("hostile inputs sent %d requests to E2B, want 0", n)
	}
}

// TestAccTemplateTagTargetNoTagCanTakeFailsThePlan: a tag target that plan resolves to a build no
// tag can point at (failed, still building, another team's, or none) fails the plan on target,
// instead of the apply's move; a ready build plans.
func TestAccTemplateTagTargetNoTagCanTakeFailsThePlan(t *testing.T) {
	emu := e2bEmulator(t)
	emu.SeedReadyTemplate("py")
	emu.SeedFailedTemplate("py", "the base image is gone")
	emu.SeedForeignTemplate("theirs", true)
	building := startHungBuild(t, emu, "py")
	info, _ := emu.Template("py")
	ready, failed := info.Builds[0].BuildID, info.Builds[1].BuildID
	theirs, _ := emu.Template("theirs")
	config := func(templateID, target string) string {
		return e2bProvider(emu) + fmt.Sprintf(`
resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = %q
  tag         = "prod"
  target      = %q
}
`, templateID, target)
	}
	refused := func(templateID, target string) resource.TestStep {
		return resource.TestStep{Config: config(templateID, target), PlanOnly: true, ExpectError: expectError(`(?s)Invalid target.*` +
			words(fmt.Sprintf("build %s of template %s failed, is still building, is another team's or does not exist: no tag can point at it", target, templateID)).String())}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			refused("py", failed),
			refused("py", building),
			refused("theirs", theirs.Builds[0].BuildID),
			refused("py", "0b8c9a4e-1111-4222-8333-944455556666"),
			{Config: config("py", ready), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}

// startHungBuild registers and starts a build of template name that stays "building", as E2B's
// SDKs do, and returns its id.
func startHungBuild(t *testing.T, emu *e2bemu.Server, name string) string {
	t.Helper()
	emu.HangBuild(name)
	post := func(path string, body, out any) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, emu.URL+path, bytes.NewReader(raw))
		req.Header.Set("X-API-Key", testE2BAPIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: HTTP %d", path, resp.StatusCode)
		}
		if out != nil {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatal(err)
			}
		}
	}
	var created struct{ TemplateID, BuildID string }
	post("/v3/templates", map[string]any{"name": name, "tags": []string{"next"}}, &created)
	post("/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID, map[string]any{"fromImage": "python:3.12"}, nil)
	return created.BuildID
}

// TestAccTemplateTagImportOfNothing: `terraform import sandbox_template_tag.x ""` is an ordinary
// error saying the ID is empty, not a value conversion the framework calls a provider bug.
func TestAccTemplateTagImportOfNothing(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, pyBody) + prodAt("sandbox_template.py.build_id")},
			{ResourceName: prodName, ImportState: true, ImportStateIdFunc: func(*terraform.State) (string, error) { return "", nil },
				// the first error is this one: no "Value Conversion Error" before it
				ExpectError: expectError(`exit status 1\s+Error: Invalid import ID\s+` +
					words(`Expected "<template_id>:<tag>" or "<backend>/<template_id>:<tag>": the import ID is empty`).String())},
		},
	})
}

// TestAccTemplateTagListOfNoTemplate: the tag list's template_id is checked like the resource's
// before it reaches the request path, where ".." would list GET /tags.
func TestAccTemplateTagListOfNoTemplate(t *testing.T) {
	emu := e2bEmulator(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, pyBody)},
			{
				Query: true,
				Config: `
list "sandbox_template_tag" "py" {
  provider = sandbox
  config {
    backend     = "e2b"
    template_id = ".."
  }
}
`,
				ExpectError: expectError(`(?s)Invalid template_id.*` + words(`".." is not valid for e2b`).String()),
			},
		},
	})
	if n := emu.CountRequests(http.MethodGet, "/tags"); n != 0 {
		t.Errorf("the list requested GET /tags %d times", n)
	}
}
