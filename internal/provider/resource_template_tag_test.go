package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Acceptance tests of versions, promotion and rollback (issue 20): candidates that never go live,
// a tag that moves between builds without a build, and what a consumer of each reference starts,
// as E2B's SDKs start it (POST /sandboxes, resolved as handlers/sandbox_create.go does).

const prodName = "sandbox_template_tag.prod"

// candidate is a template resource that builds candidates of packages pkg, tagged tag.
func candidate(emu *e2bemu.Server, pkg, tag string) string {
	return e2bTemplate(emu, fmt.Sprintf(`
  image     = "python:3.12-slim"
  start_cmd = ""
  packages  = [%q]
  tags      = [%q]
  candidate = true
`, pkg, tag))
}

// prodAt is the tag prod pointing at target (HCL), applied after the template it tags.
func prodAt(target string) string {
	return fmt.Sprintf(`
resource "sandbox_template_tag" "prod" {
  backend     = "e2b"
  template_id = sandbox_template.py.template_id
  tag         = "prod"
  target      = %s
}
`, target)
}

// prodAtVariable points prod at var.prod_target, a build id an earlier step captured.
var prodAtVariable = `
variable "prod_target" {
  type = string
}
` + prodAt("var.prod_target")

// captured is a configuration variable whose value a check of an earlier step captured.
type captured struct{ value *string }

func (c captured) MarshalJSON() ([]byte, error) { return json.Marshal(*c.value) }

// capture records the template's build_id into *into.
func capture(into *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(resourceName, "build_id", func(v string) error { *into = v; return nil })
}

// startedFrom starts a sandbox from ref as E2B's SDKs do (POST /sandboxes with the API key), kills
// it again (running sandboxes block a template's delete), and returns the build it started from.
func startedFrom(emu *e2bemu.Server, ref string) (string, error) {
	body, _ := json.Marshal(map[string]string{"templateID": ref})
	req, _ := http.NewRequest(http.MethodPost, emu.URL+"/sandboxes", bytes.NewReader(body))
	req.Header.Set("X-API-Key", testE2BAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	var created struct {
		SandboxID string `json:"sandboxID"`
		Message   string `json:"message"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&created)
	if resp.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("a sandbox of %s: %d %s", ref, resp.StatusCode, created.Message)
	}
	sandbox, _ := emu.Sandbox(created.SandboxID)
	kill, _ := http.NewRequest(http.MethodDelete, emu.URL+"/sandboxes/"+created.SandboxID, nil)
	kill.Header.Set("X-API-Key", testE2BAPIKey)
	if resp, err := http.DefaultClient.Do(kill); err == nil {
		_ = resp.Body.Close()
	}
	return sandbox.BuildID, nil
}

// starts checks that a sandbox of ref starts from the build *want holds.
func starts(emu *e2bemu.Server, ref string, want *string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := startedFrom(emu, ref)
		if err != nil || got != *want || got == "" {
			return fmt.Errorf("Sandbox.create(%q) started build %q (%v), want %q", ref, got, err, *want)
		}
		return nil
	}
}

// registrations checks how many builds were registered (POST /v3/templates) in all.
func registrations(emu *e2bemu.Server, want int) resource.TestCheckFunc {
	return posts(emu, "/v3/templates", want)
}

// tagMoves checks how many tag moves (POST /templates/tags) were sent in all.
func tagMoves(emu *e2bemu.Server, want int) resource.TestCheckFunc {
	return posts(emu, "/templates/tags", want)
}

func posts(emu *e2bemu.Server, path string, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := emu.CountRequests(http.MethodPost, path); got != want {
			return fmt.Errorf("%d POST %s, want %d", got, path, want)
		}
		return nil
	}
}

// plannedBuild checks that the plan points the tag at the build *want holds.
func plannedBuild(want *string) plancheck.PlanCheck {
	return plancheck.ExpectKnownValue(prodName, tfjsonpath.New("build_id"), knownvalue.StringFunc(func(v string) error {
		if v != *want {
			return fmt.Errorf("planned build_id %s, want %s", v, *want)
		}
		return nil
	}))
}

// TestAccTemplateTagPromotionAndRollback: CI builds candidates while sandboxes of the plain name
// keep starting the live build; promotion points prod at exactly one candidate's build, and
// rollback points it back, each a plan that changes only the tag and registers no build; a tag
// moved outside Terraform shows as drift and is pointed back; destroying the tag leaves every build.
func TestAccTemplateTagPromotionAndRollback(t *testing.T) {
	emu := e2bEmulator(t)
	emu.SeedReadyTemplate("py") // the live build an earlier pipeline made
	info, _ := emu.Template("py")
	var live, a, b = info.Builds[0].BuildID, "", ""
	atA := config.Variables{"prod_target": captured{&a}}
	atB := config.Variables{"prod_target": captured{&b}}
	onlyProdUpdates := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionNoop),
		plancheck.ExpectResourceAction(prodName, plancheck.ResourceActionUpdate),
	}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: candidate(emu, "pkg-a", "git-a"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref").AtMapKey("value"), knownvalue.StringExact("py")),
				},
				Check: resource.ComposeTestCheckFunc(capture(&a), registrations(emu, 1), starts(emu, "py", &live), starts(emu, "py:git-a", &a),
					func(s *terraform.State) error {
						return starts(emu, s.RootModule().Resources[resourceName].Primary.Attributes["build_ref.value"], &a)(s)
					}),
			},
			{
				Config: candidate(emu, "pkg-a", "git-a") + prodAtVariable, ConfigVariables: atA,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(prodName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"provider": knownvalue.StringExact("e2b"), "value": knownvalue.StringExact("py:prod")})),
				},
				Check: resource.ComposeTestCheckFunc(registrations(emu, 1), tagMoves(emu, 1), starts(emu, "py:prod", &a), starts(emu, "py", &live)),
			},
			{
				// The next candidate: prod and the plain name stay where they were.
				Config: candidate(emu, "pkg-b", "git-b") + prodAtVariable, ConfigVariables: atA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(prodName, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(capture(&b), registrations(emu, 2), starts(emu, "py:prod", &a), starts(emu, "py", &live)),
			},
			{
				// Promotion: only the tag changes, to exactly b's build, known at plan time; no build.
				Config: candidate(emu, "pkg-b", "git-b") + prodAtVariable, ConfigVariables: atB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(onlyProdUpdates.PreApply, plannedBuild(&b))},
				Check:            resource.ComposeTestCheckFunc(registrations(emu, 2), tagMoves(emu, 2), starts(emu, "py:prod", &b), starts(emu, "py", &live)),
			},
			{
				// Rollback: the revert of the promotion, again without a build.
				Config: candidate(emu, "pkg-b", "git-b") + prodAtVariable, ConfigVariables: atA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(onlyProdUpdates.PreApply, plannedBuild(&a))},
				Check:            resource.ComposeTestCheckFunc(registrations(emu, 2), tagMoves(emu, 3), starts(emu, "py:prod", &a)),
			},
			{
				// Someone moves prod by hand (E2B's SDK: Template.assignTags): the refresh shows it.
				PreConfig: func() { moveTag(t, emu, "py:git-b", "prod") },
				Config:    candidate(emu, "pkg-b", "git-b") + prodAtVariable, ConfigVariables: atA,
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				Config: candidate(emu, "pkg-b", "git-b") + prodAtVariable, ConfigVariables: atA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append(onlyProdUpdates.PreApply, plannedBuild(&a))},
				Check:            resource.ComposeTestCheckFunc(registrations(emu, 2), starts(emu, "py:prod", &a)),
			},
			{
				// Destroying the tag removes the tag, never a build.
				Config: candidate(emu, "pkg-b", "git-b"),
				Check: resource.ComposeTestCheckFunc(registrations(emu, 2), starts(emu, "py", &live), starts(emu, "py:"+"git-a", &a),
					func(*terraform.State) error {
						if ref, err := startedFrom(emu, "py:prod"); err == nil {
							return fmt.Errorf("py:prod still starts %s after the tag was destroyed", ref)
						}
						info, _ := emu.Template("py")
						for _, build := range info.Builds {
							if build.Status != "ready" {
								return fmt.Errorf("build %s is %s after the tag was destroyed", build.BuildID, build.Status)
							}
						}
						if len(info.Builds) != 3 {
							return fmt.Errorf("%d builds after the tag was destroyed, want 3", len(info.Builds))
						}
						return nil
					}),
			},
		},
	})
}

// moveTag points tag at the build target names, as E2B's SDK (Template.assignTags) does.
func moveTag(t *testing.T, emu *e2bemu.Server, target, tag string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"target": target, "tags": []string{tag}})
	req, _ := http.NewRequest(http.MethodPost, emu.URL+"/templates/tags", bytes.NewReader(body))
	req.Header.Set("X-API-Key", testE2BAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("moving %s to %s: %v %v", tag, target, err, resp)
	}
	_ = resp.Body.Close()
}

// TestAccTemplateTagFailedCandidateNeverMovesProd: a pipeline that promotes each candidate it
// builds (target = build_id) leaves prod where it was when the candidate fails; reverting to the
// last good candidate adopts its build without building.
func TestAccTemplateTagFailedCandidateNeverMovesProd(t *testing.T) {
	emu := e2bEmulator(t)
	var a string
	promoted := func(pkg string) string {
		return candidate(emu, pkg, "git-"+pkg) + prodAt("sandbox_template.py.build_id")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: promoted("a"), Check: resource.ComposeTestCheckFunc(capture(&a), starts(emu, "py:prod", &a))},
			{
				PreConfig:   func() { emu.FailBuild("py", "pip install exited with code 1") },
				Config:      promoted("b"),
				ExpectError: expectError(`(?s)Template build failed at stage TEMPLATE_BUILD.*pip install exited with code 1`),
			},
			{
				PreConfig: func() {
					if got, err := startedFrom(emu, "py:prod"); err != nil || got != a {
						t.Errorf("after a failed candidate, py:prod starts %q (%v), want %s", got, err, a)
					}
				},
				Config: promoted("a"),
				Check:  resource.ComposeTestCheckFunc(registrations(emu, 2), starts(emu, "py:prod", &a)),
			},
		},
	})
}

// TestAccTemplateTagTargetsATag: a target may be another tag of the template (a release tag):
// prod points at the build it names, follows it to another release when target changes, and a
// plan of the same configuration is empty.
func TestAccTemplateTagTargetsATag(t *testing.T) {
	emu := e2bEmulator(t)
	var a, b string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: candidate(emu, "pkg-a", "git-a") + prodAt(`"git-a"`), Check: resource.ComposeTestCheckFunc(capture(&a), starts(emu, "py:prod", &a))},
			{Config: candidate(emu, "pkg-b", "git-b") + prodAt(`"git-b"`), Check: resource.ComposeTestCheckFunc(capture(&b), starts(emu, "py:prod", &b))},
			{Config: candidate(emu, "pkg-b", "git-b") + prodAt(`"git-b"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{Config: candidate(emu, "pkg-b", "git-b") + prodAt(`"git-a"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(prodName, plancheck.ResourceActionUpdate)}},
				Check: starts(emu, "py:prod", &a)},
		},
	})
}

// TestAccTemplateCandidateGoesLive: candidates leave the plain name to the build it had (none,
// here: E2B answers 404); the candidate's own tags start it; turning candidate off, and adding a
// tag, give the current build `default` and the tag without building.
func TestAccTemplateCandidateGoesLive(t *testing.T) {
	emu := e2bEmulator(t)
	var built string
	live := e2bTemplate(emu, pyBody+`  tags = ["v1", "v2"]`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: e2bTemplate(emu, pyBody+`
  tags      = ["v1"]
  candidate = true
`),
				Check: resource.ComposeTestCheckFunc(capture(&built), starts(emu, "py:v1", &built), func(*terraform.State) error {
					if got, err := startedFrom(emu, "py"); err == nil {
						return fmt.Errorf("the plain name started %s while only a candidate was built", got)
					}
					return nil
				}),
			},
			{
				Config: live,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("build_id"), knownvalue.NotNull()),
				}},
				Check: resource.ComposeTestCheckFunc(registrations(emu, 1), starts(emu, "py", &built), starts(emu, "py:v2", &built)),
			},
			{Config: live, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestAccTemplateTagOnTheLiveTag: a tag resource may move `default` itself (consumers of the plain
// name then get the promoted candidate); destroying it keeps the tag, which E2B never removes.
func TestAccTemplateTagOnTheLiveTag(t *testing.T) {
	emu := e2bEmulator(t)
	var a string
	withLive := candidate(emu, "pkg-a", "git-a") + `
resource "sandbox_template_tag" "live" {
  backend     = "e2b"
  template_id = "py"
  tag         = "default"
  target      = sandbox_template.py.build_id
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withLive, Check: resource.ComposeTestCheckFunc(capture(&a), starts(emu, "py", &a))},
			{Config: withLive, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{Config: candidate(emu, "pkg-a", "git-a"), Check: starts(emu, "py", &a)},
		},
	})
}

// TestAccTemplateTagValidation: tags are checked at plan time by E2B's rules, on the attribute at
// fault, with no request; backends without tags say so.
func TestAccTemplateTagValidation(t *testing.T) {
	emu := e2bEmulator(t)
	tag := func(backend, templateID, name, target string) string {
		return e2bProvider(emu) + fmt.Sprintf(`
resource "sandbox_template_tag" "x" {
  backend     = %q
  template_id = %q
  tag         = %q
  target      = %q
}
`, backend, templateID, name, target)
	}
	steps := []resource.TestStep{}
	for _, tt := range []struct{ config, want string }{
		{tag("opensandbox", "py", "prod", "v1"), `(?s)Backend has no build tags.*the OpenSandbox backend has no build tags`},
		{tag("bedrock", "aws.codeinterpreter.v1", "prod", "v1"), `the Bedrock AgentCore backend has no build tags`},
		{tag("e2b", "py", "Prod", "v1"), `(?s)Invalid tag.*"Prod" is not a valid E2B tag`},
		{tag("e2b", "py", "inputs-1", "v1"), `(?s)Invalid tag.*"inputs-1" is reserved`},
		{tag("e2b", "py", "0b2a3f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "v1"), `a tag cannot be a UUID`},
		{tag("e2b", "py", "prod", "not valid"), `(?s)Invalid target.*is neither a tag nor a build id`},
		{e2bTemplate(emu, pyBody+`  tags = ["Release 1"]`), `(?s)Invalid tags.*"Release 1" is not a valid E2B tag`},
		{e2bTemplate(emu, pyBody+`  tags = ["default"]`), `(?s)Invalid tags.*"default" is the tag of the build the plain template name starts`},
		{`
resource "sandbox_template" "x" {
  backend     = "opensandbox"
  template_id = "py"
  image       = "python:3.12"
  candidate   = true
}
`, `(?s)Invalid candidate.*the OpenSandbox backend has no build tags`},
	} {
		// The CLI wraps diagnostics: any space may be a line break.
		steps = append(steps, resource.TestStep{Config: tt.config, PlanOnly: true, ExpectError: expectError(strings.ReplaceAll(tt.want, " ", `\s+`))})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps:                    steps,
		CheckDestroy: func(*terraform.State) error {
			if n := len(emu.Requests()); n != 0 {
				return fmt.Errorf("plan-time validation sent %d requests, want none", n)
			}
			return nil
		},
	})
}

// TestTagOnTheLiveTagWarns: managing `default` is allowed, and the plan says what it means: every
// consumer of the plain name follows it, and destroying the resource leaves it.
func TestTagOnTheLiveTagWarns(t *testing.T) {
	for tag, warns := range map[string]bool{"default": true, "prod": false} {
		cfg := configWith(t, templateTagSchema(), map[string]tftypes.Value{"backend": str("e2b"), "template_id": str("py"),
			"tag": str(tag), "target": str("v1")})
		var resp fwresource.ValidateConfigResponse
		(&templateTagResource{}).ValidateConfig(context.Background(), fwresource.ValidateConfigRequest{Config: cfg}, &resp)
		warning := resp.Diagnostics.WarningsCount() == 1 && strings.Contains(resp.Diagnostics.Warnings()[0].Detail(), "never removes this tag")
		if resp.Diagnostics.HasError() || warning != warns {
			t.Errorf("tag %q: diagnostics %v, want a warning: %v", tag, resp.Diagnostics, warns)
		}
	}
}
