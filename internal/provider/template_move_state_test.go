package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestAccTemplateMovedFromE2BTemplate: a template 536tech/e2b built, in the state its e2b_template
// wrote, moves to sandbox_template with one `moved` block and the same inputs: the plan shows only
// the move, nothing is built, the template keeps the build 536tech/e2b made, and the plan after is empty.
func TestAccTemplateMovedFromE2BTemplate(t *testing.T) {
	emu := newE2B(t)
	old := buildAs536tech(t, emu, "data-science", "python:3.12", map[string]any{"startCmd": "python3 -m http.server 8000", "readyCmd": "curl -s localhost:8000"})
	seed := seedE2BTemplateState(t, old, map[string]any{"from_image": "python:3.12",
		"start_cmd": "python3 -m http.server 8000", "ready_cmd": "curl -s localhost:8000", "cpu_count": 2, "memory_mb": 1024})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{{
			PreConfig: seed,
			Config: movedConfig(emu, `
  image     = "python:3.12"
  start_cmd = "python3 -m http.server 8000"
  ready_cmd = "curl -s localhost:8000"
  cpu_count = 2
  memory_mb = 1024`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				movedFrom("e2b_template.ds", "sandbox_template.ds"),
				plancheck.ExpectResourceAction("sandbox_template.ds", plancheck.ResourceActionNoop),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sandbox_template.ds", "status", "SKIPPED"),
				resource.TestCheckResourceAttr("sandbox_template.ds", "build_id", old.buildID), // recorded by the refresh
				resource.TestCheckResourceAttr("sandbox_template.ds", "template_ref.value", "data-science"),
				func(*terraform.State) error {
					if n := len(emu.BuildStarts()); n != 1 {
						return fmt.Errorf("%d builds started, want only the one 536tech/e2b started", n)
					}
					return nil
				},
			),
		}},
	})
}

// TestAccTemplateMovedFromE2BTemplateWithOtherInputs: moved with a configuration whose image is
// not the one e2b_template built from, the plan is an in-place update that names the image, and
// the apply rebuilds the template from the new image under the same alias.
func TestAccTemplateMovedFromE2BTemplateWithOtherInputs(t *testing.T) {
	emu := newE2B(t)
	old := buildAs536tech(t, emu, "data-science", "python:3.12", nil)
	seed := seedE2BTemplateState(t, old, map[string]any{"from_image": "python:3.12", "cpu_count": 0, "memory_mb": 0})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{{
			PreConfig: seed,
			Config: movedConfig(emu, `
  image     = "python:3.13"
  start_cmd = ""`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				movedFrom("e2b_template.ds", "sandbox_template.ds"),
				plancheck.ExpectResourceAction("sandbox_template.ds", plancheck.ResourceActionUpdate),
				changes("sandbox_template.ds", "image", "python:3.12", "python:3.13"), // why it rebuilds
				plancheck.ExpectUnknownValue("sandbox_template.ds", tfjsonpath.New("build_id")),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("sandbox_template.ds", "status", "SUCCESS"),
				func(*terraform.State) error {
					starts := emu.BuildStarts()
					if len(starts) != 2 || starts[1].Body.FromImage == nil || *starts[1].Body.FromImage != "python:3.13" {
						return fmt.Errorf("builds started: %+v, want 536tech/e2b's and one from python:3.13", starts)
					}
					if starts[1].TemplateID != old.templateID {
						return fmt.Errorf("rebuilt template %s, want the moved one, %s", starts[1].TemplateID, old.templateID)
					}
					return nil
				},
			),
		}},
	})
}

// e2bTemplateBuild is what 536tech/e2b's create leaves: a template and its one build.
type e2bTemplateBuild struct{ alias, templateID, buildID string }

// buildAs536tech makes the requests 536tech/e2b's e2b_template create makes (client.go: POST
// /v3/templates, POST /v2/templates/{id}/builds/{build}, then the build's status until ready), so
// the template carries nothing this provider records with its own builds.
func buildAs536tech(t *testing.T, emu *e2bemu.Server, alias, image string, start map[string]any) e2bTemplateBuild {
	t.Helper()
	var created struct{ TemplateID, BuildID string }
	e2bCall(t, emu, http.MethodPost, "/v3/templates", map[string]any{"name": alias}, &created)
	body := map[string]any{"fromImage": image}
	for k, v := range start {
		body[k] = v
	}
	e2bCall(t, emu, http.MethodPost, "/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID, body, nil)
	var status struct{ Status string }
	for status.Status != "ready" { // the emulator finishes a build by its first poll
		e2bCall(t, emu, http.MethodGet, "/templates/"+created.TemplateID+"/builds/"+created.BuildID+"/status", nil, &status)
		if status.Status == "error" {
			t.Fatalf("536tech/e2b's build failed")
		}
	}
	return e2bTemplateBuild{alias: alias, templateID: created.TemplateID, buildID: created.BuildID}
}

func e2bCall(t *testing.T, emu *e2bemu.Server, method, path string, body, out any) {
	t.Helper()
	raw, _ := json.Marshal(body) // nil: "null", which the GETs ignore
	req, err := http.NewRequestWithContext(context.Background(), method, emu.URL+path, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", testE2BAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// seedE2BTemplateState returns a PreConfig that puts in the test's working directory the state
// 536tech/e2b leaves after creating and refreshing e2b_template.ds (schema version 0): build_id ""
// as its read sets it, the inputs given. plugin-testing has no way to start from a state, so the
// test keeps its working directories where it can find them (TF_ACC_TEMP_DIR).
func seedE2BTemplateState(t *testing.T, b e2bTemplateBuild, inputs map[string]any) func() {
	t.Helper()
	attributes := map[string]any{"id": b.templateID, "name": b.alias, "from_image": nil, "start_cmd": nil, "ready_cmd": nil,
		"cpu_count": 0, "memory_mb": 0, "force": nil, "build_id": "", "disk_size_mb": 0, "public": false,
		"aliases": []string{b.alias}, "names": []string{"emulator/" + b.alias}, "created_at": "2026-06-20T10:00:00Z",
		"updated_at": "2026-06-20T10:00:00Z", "last_spawned_at": nil, "spawn_count": 0, "build_count": 1,
		"envd_version": "0.2.0", "build_status": "ready"}
	seed := seedMovedState(t, "536tech/e2b", "e2b_template.ds", attributes)
	return func() { seed(inputs) }
}

// movedConfig is the configuration that takes e2b_template.ds over: the provider, the moved block
// and the resource with the inputs given.
func movedConfig(emu *e2bemu.Server, inputs string) string {
	return e2bProvider(emu) + fmt.Sprintf(`
moved {
  from = e2b_template.ds
  to   = sandbox_template.ds
}

resource "sandbox_template" "ds" {
  backend     = "e2b"
  template_id = "data-science"%s
}
`, inputs)
}

// installProviderStub builds testdata/providerstub as source's provider ("536tech/e2b": a provider
// "e2b") and points the CLI at it: a state names its provider, and the CLI plans nothing until every
// provider a state names is installed, yet a move asks nothing of the source provider. Each test
// builds it into its own temporary directory (Go's build cache makes the second build quick).
func installProviderStub(t *testing.T, source string) {
	t.Helper()
	dir := t.TempDir()
	_, typeName, _ := strings.Cut(source, "/")
	ldflags := fmt.Sprintf("-X main.address=registry.terraform.io/%s -X main.typeName=%s", source, typeName)
	out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", filepath.Join(dir, "terraform-provider-"+typeName), "./testdata/providerstub").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ./testdata/providerstub: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "provider-stub.tfrc")
	config := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", source, dir)
	if err := os.WriteFile(rc, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_CLI_CONFIG_FILE", rc)
}

// seedMovedState returns a function that puts in the test's working directory a state holding
// only address (<type>.<name>), written by provider at schema version 0 with attributes (those
// given to the function override them), after installing the stand-in for provider
// (installProviderStub). plugin-testing has
// no way to start from a state, so the test keeps its working directories where it can find them
// (TF_ACC_TEMP_DIR). Called from a step's PreConfig (after the CLI version check: older CLIs skip
// before building the stand-in).
func seedMovedState(t *testing.T, provider, address string, attributes map[string]any) func(map[string]any) {
	resourceType, name, _ := strings.Cut(address, ".")
	t.Helper()
	temp := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", temp)
	return func(overrides map[string]any) {
		installProviderStub(t, provider)
		all := map[string]any{}
		for k, v := range attributes {
			all[k] = v
		}
		for k, v := range overrides {
			all[k] = v
		}
		host := os.Getenv("TF_ACC_PROVIDER_HOST") // OpenTofu's registry for tofu, as its state names it
		if host == "" {
			host = "registry.terraform.io"
		}
		state, err := json.Marshal(map[string]any{"version": 4, "terraform_version": "1.9.0", "serial": 10,
			"lineage": "0b8e6f3a-2c4d-4e1f-9a7b-5d3c1e2f4a60", "outputs": map[string]any{},
			"resources": []any{map[string]any{"mode": "managed", "type": resourceType, "name": name,
				"provider":  fmt.Sprintf("provider[%q]", host+"/"+provider),
				"instances": []any{map[string]any{"schema_version": 0, "attributes": all, "sensitive_attributes": []any{}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		dirs, _ := filepath.Glob(filepath.Join(temp, "plugintest[0-9]*", "work*"))
		if len(dirs) != 1 {
			t.Fatalf("working directories %v, want the test's one", dirs)
		}
		if err := os.WriteFile(filepath.Join(dirs[0], "terraform.tfstate"), state, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// changes checks that the plan changes address's attribute from before to after.
type changesCheck struct{ address, attribute, before, after string }

func changes(address, attribute, before, after string) plancheck.PlanCheck {
	return changesCheck{address, attribute, before, after}
}

func (c changesCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.address {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		if before[c.attribute] != c.before || after[c.attribute] != c.after {
			resp.Error = fmt.Errorf("%s.%s: %v -> %v, want %q -> %q", c.address, c.attribute, before[c.attribute], after[c.attribute], c.before, c.after)
		}
		return
	}
	resp.Error = fmt.Errorf("the plan has no change of %s", c.address)
}

// movedFrom checks that the plan moves from to to.
type movedFromCheck struct{ from, to string }

func movedFrom(from, to string) plancheck.PlanCheck { return movedFromCheck{from, to} }

func (c movedFromCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == c.to {
			if rc.PreviousAddress != c.from {
				resp.Error = fmt.Errorf("%s: previous address %q, want %q", c.to, rc.PreviousAddress, c.from)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("the plan has no change of %s", c.to)
}

// TestMoveE2BTemplateState: what MoveResourceState makes of e2b_template states, through the
// protocol as the CLI calls it: the inputs and the build the old state proves, 536tech/e2b's
// meanings turned into this provider's, and refusals that name what they refuse.
func TestMoveE2BTemplateState(t *testing.T) {
	ready := map[string]any{"id": "tpl0123456789abcdefg", "name": "data-science", "from_image": "python:3.12",
		"start_cmd": "python3 -m http.server", "ready_cmd": "curl -s localhost:8000", "cpu_count": 4, "memory_mb": 2048,
		"build_id": "3f67ca8a-1ce2-4366-a455-d805b751fe91", "build_status": "ready", "public": false, "aliases": []string{"data-science"}}
	with := func(changes map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range ready {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return out
	}
	runMoveCases(t, "registry.terraform.io/536tech/e2b", "e2b_template", []moveCase{
		{name: "every input and the build", attributes: ready, want: map[string]any{"backend": "e2b", "template_id": "data-science",
			"id": "data-science", "image": "python:3.12", "start_cmd": "python3 -m http.server", "ready_cmd": "curl -s localhost:8000",
			"cpu_count": int64(4), "memory_mb": int64(2048), "build_id": "3f67ca8a-1ce2-4366-a455-d805b751fe91", "status": "SKIPPED",
			"image_digest_check": "off", "force_rebuild": false, "keep_remotely": false}},
		{name: "OpenTofu's registry", provider: "registry.opentofu.org/536tech/e2b", attributes: ready,
			want: map[string]any{"template_id": "data-science"}},
		{name: "no build id, as after a refresh", attributes: with(map[string]any{"build_id": ""}),
			want: map[string]any{"build_id": nil, "status": "SKIPPED"}, wantWarnings: []string{"keeps no build id"}},
		{name: "a build that did not finish proves nothing", attributes: with(map[string]any{"build_status": "error"}),
			want: map[string]any{"build_id": nil}},
		{name: "no start_cmd there is none here", attributes: with(map[string]any{"start_cmd": nil, "ready_cmd": nil}),
			want: map[string]any{"start_cmd": "", "ready_cmd": nil}, wantWarnings: []string{`start_cmd = ""`}},
		{name: "E2B's default sizing", attributes: with(map[string]any{"cpu_count": 0, "memory_mb": 0}),
			want: map[string]any{"cpu_count": nil, "memory_mb": nil}},
		{name: "a tagged name", attributes: with(map[string]any{"name": "data-science:v1"}),
			want: map[string]any{"template_id": "data-science"}, wantWarnings: []string{`names the tag "v1"`}},
		{name: "imported there, without from_image", attributes: with(map[string]any{"from_image": nil}),
			want:         map[string]any{"image": nil, "start_cmd": nil, "cpu_count": nil, "build_id": nil, "status": "SKIPPED"},
			wantImported: true, wantWarnings: []string{"as an import does"},
		},
		{name: "another schema version", version: 1, attributes: ready, wantError: "schema version 1"},
		{name: "another provider's e2b_template", provider: "registry.terraform.io/someone/e2b", attributes: ready,
			wantError: "does not include support for the given source resource"},
		{name: "another resource of 536tech/e2b", typeName: "e2b_sandbox", attributes: ready,
			wantError: "does not include support for the given source resource"},
		{name: "no alias", attributes: with(map[string]any{"name": nil, "aliases": []string{}}), wantError: "cannot be moved"},
	})
}

// movedValue is a moved state's attribute as Go's (plainValue), "<ref>.value" a reference's value.
func movedValue(m templateModel, name string) any {
	if ref, ok := strings.CutSuffix(name, ".value"); ok {
		value, _ := m.attribute(ref).(interface{ Attributes() map[string]attr.Value })
		if value == nil {
			return nil
		}
		return plainValue(value.Attributes()["value"])
	}
	return plainValue(m.attribute(name))
}

// plainValue is a state value as Go's: a string, int64 or bool, nil when null.
func plainValue(v attr.Value) any {
	switch v := v.(type) {
	case types.String:
		if v.IsNull() {
			return nil
		}
		return v.ValueString()
	case types.Int64:
		if v.IsNull() {
			return nil
		}
		return v.ValueInt64()
	case types.Bool:
		if v.IsNull() {
			return nil
		}
		return v.ValueBool()
	}
	return v
}

// moveCase is one MoveResourceState call from a source provider's resource (provider and typeName
// default to the test's) and what it must come to.
type moveCase struct {
	name         string
	provider     string
	typeName     string
	version      int64
	attributes   map[string]any
	want         map[string]any // attributes of the moved state ("<ref>.value": a reference's value)
	wantImported bool
	wantWarnings []string
	wantError    string
}

// runMoveCases moves each case's state through the provider's protocol server, as a CLI's moved
// block does, and checks the errors, warnings, attributes and the imported mark it comes to.
func runMoveCases(t *testing.T, provider, typeName string, cases []moveCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			source := map[string]string{"provider": provider, "type": typeName}
			if tt.provider != "" {
				source["provider"] = tt.provider
			}
			if tt.typeName != "" {
				source["type"] = tt.typeName
			}
			raw, _ := json.Marshal(tt.attributes)
			server := providerserver.NewProtocol6(New("test")())()
			resp, err := server.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
				SourceProviderAddress: source["provider"], SourceTypeName: source["type"], SourceSchemaVersion: tt.version,
				SourceState: &tfprotov6.RawState{JSON: raw}, TargetTypeName: "sandbox_template"})
			if err != nil {
				t.Fatal(err)
			}
			var errs, warnings []string
			for _, d := range resp.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					errs = append(errs, d.Summary+": "+d.Detail)
				} else {
					warnings = append(warnings, d.Detail)
				}
			}
			if tt.wantError != "" {
				if len(errs) != 1 || !strings.Contains(errs[0], tt.wantError) {
					t.Fatalf("errors %q, want one saying %q", errs, tt.wantError)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors: %q", errs)
			}
			for _, want := range tt.wantWarnings {
				if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, want) }) {
					t.Errorf("warnings %q, want one saying %q", warnings, want)
				}
			}
			state, err := resp.TargetState.Unmarshal(templateCodec().objectType)
			if err != nil {
				t.Fatal(err)
			}
			var moved templateModel
			if diags := readModel(context.Background(), state, &moved); diags.HasError() {
				t.Fatal(diags)
			}
			for name, want := range tt.want {
				if got := movedValue(moved, name); got != want {
					t.Errorf("%s = %#v, want %#v", name, got, want)
				}
			}
			if imported := bytes.Contains(resp.TargetPrivate, []byte(privateImported)); imported != tt.wantImported {
				t.Errorf("marked imported: %t, want %t", imported, tt.wantImported)
			}
		})
	}
}
