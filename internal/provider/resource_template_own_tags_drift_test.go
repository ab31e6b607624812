package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Acceptance tests of a template's own tags moved or removed outside its configuration (issue 31):
// the refresh sees it, the plan points them back at the recorded build without building, and a
// warning names the tag, where it went and why.

// stableAt is template py of packages pkg, tagged stable.
func stableAt(emu *e2bemu.Server, pkg string) string {
	return e2bTemplate(emu, pyBody+fmt.Sprintf("  packages = [%q]\n  tags     = [\"stable\"]\n", pkg))
}

// TestAccTemplateOwnTagMovedByHandIsPointedBack: stable, moved by hand to an older build, leaves the
// refreshed record (a refresh shows the drift), with a warning naming both builds; the plan is an
// update of tags alone that keeps the build, and its apply points stable back without building.
// Removed by hand, the same.
func TestAccTemplateOwnTagMovedByHandIsPointedBack(t *testing.T) {
	emu := e2bEmulator(t)
	warnings := &refreshWarnings{}
	var older, recorded string
	pointedBack := resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate), onlyTagsChange{resourceName}}}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: warnings.factories(),
		Steps: []resource.TestStep{
			{Config: stableAt(emu, "pkg-a"), Check: capture(&older)},
			{Config: stableAt(emu, "pkg-b"), Check: resource.ComposeTestCheckFunc(capture(&recorded), starts(emu, "py:stable", &recorded))},
			{
				PreConfig:    func() { moveTag(t, emu, "py:"+older, "stable") },
				RefreshState: true, ExpectNonEmptyPlan: true,
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate), onlyTagsChange{resourceName}}},
				Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "tags.#", "0"),
					warnings.said(`Tag "stable" of template "py" starts build %s, not build %s that this resource records: another configuration`, &older, &recorded)),
			},
			{
				Config: stableAt(emu, "pkg-b"), ConfigPlanChecks: pointedBack,
				Check: resource.ComposeTestCheckFunc(starts(emu, "py:stable", &recorded), registrations(emu, 2), buildsAre(emu, 2)),
			},
			{
				PreConfig: func() { removeTag(t, emu, "py", "stable") },
				Config:    stableAt(emu, "pkg-b"), ConfigPlanChecks: pointedBack,
				Check: resource.ComposeTestCheckFunc(starts(emu, "py:stable", &recorded), registrations(emu, 2), buildsAre(emu, 2),
					warnings.said(`Tag "stable" of template "py" no longer exists, not build %s that this resource records`, &recorded)),
			},
			{Config: stableAt(emu, "pkg-b"), ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestAccTemplateCandidateOwnTagMovedByHand: a candidate's tags are the only tag references to its
// build: moved by hand, they are pointed back at it, and the plain name stays where it was.
func TestAccTemplateCandidateOwnTagMovedByHand(t *testing.T) {
	emu := e2bEmulator(t)
	emu.SeedReadyTemplate("py")
	info, _ := emu.Template("py")
	live, built := info.Builds[0].BuildID, ""
	config := candidate(emu, "pkg-a", "git-a")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, Check: resource.ComposeTestCheckFunc(capture(&built), starts(emu, "py:git-a", &built))},
			{
				PreConfig: func() { moveTag(t, emu, "py:default", "git-a") },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(resourceName, plancheck.ResourceActionUpdate), onlyTagsChange{resourceName}}},
				Check: resource.ComposeTestCheckFunc(starts(emu, "py:git-a", &built), starts(emu, "py", &live), registrations(emu, 1)),
			},
		},
	})
}

// removeTag removes every assignment of tag, as E2B's SDK (Template.removeTags) does.
func removeTag(t *testing.T, emu *e2bemu.Server, template, tag string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": template, "tags": []string{tag}})
	req, _ := http.NewRequest(http.MethodDelete, emu.URL+"/templates/tags", bytes.NewReader(body))
	req.Header.Set("X-API-Key", testE2BAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("removing %s from %s: %v %v", tag, template, err, resp)
	}
	_ = resp.Body.Close()
}

// onlyTagsChange checks that the planned change of a resource changes tags and nothing else, and
// leaves nothing unknown (a build would make its outcome unknown).
type onlyTagsChange struct{ address string }

func (c onlyTagsChange) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.address {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		var changed []string
		for name, value := range after {
			if !reflect.DeepEqual(before[name], value) {
				changed = append(changed, name)
			}
		}
		slices.Sort(changed)
		if !slices.Equal(changed, []string{"tags"}) || !reflect.DeepEqual(rc.Change.AfterUnknown, map[string]any{}) {
			resp.Error = fmt.Errorf("%s: the plan changes %v (unknown after: %v), want only tags", c.address, changed, rc.Change.AfterUnknown)
		}
		return
	}
	resp.Error = fmt.Errorf("%s: no planned change", c.address)
}

// refreshWarnings serves the provider as protoV6ProviderFactories does and keeps the warnings its
// refreshes (ReadResource) return to the CLI, which prints them.
type refreshWarnings struct {
	mu      sync.Mutex
	details []string
}

// warningServer passes every call on; the tests' configurations use resources only.
type warningServer struct {
	tfprotov6.ProviderServer
	warnings *refreshWarnings
}

func (w *refreshWarnings) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"sandbox": func() (tfprotov6.ProviderServer, error) {
			server, err := protoV6ProviderFactories["sandbox"]()
			return warningServer{server, w}, err
		},
	}
}

func (s warningServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		s.warnings.mu.Lock()
		defer s.warnings.mu.Unlock()
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityWarning {
				s.warnings.details = append(s.warnings.details, d.Summary+": "+d.Detail)
			}
		}
	}
	return resp, err
}

// said checks that a refresh warned with format, filled with the values the pointers hold then.
func (w *refreshWarnings) said(format string, args ...*string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		values := make([]any, len(args))
		for i, a := range args {
			values[i] = *a
		}
		want := fmt.Sprintf(format, values...)
		w.mu.Lock()
		defer w.mu.Unlock()
		if !slices.ContainsFunc(w.details, func(d string) bool { return strings.Contains(d, want) }) {
			return fmt.Errorf("no refresh warned %q; warnings: %q", want, w.details)
		}
		return nil
	}
}

// TestOwnTagWarningNamesTheConflict: the warning a moved tag gives says where it went, that another
// configuration or a hand edit moved it, that the next apply points it back, and what ends the
// back and forth of two configurations managing one tag.
func TestOwnTagWarningNamesTheConflict(t *testing.T) {
	tags, _ := types.SetValueFrom(context.Background(), types.StringType, []string{"stable", "v1", "old"})
	state := templateModel{TemplateID: types.StringValue("py"), BuildID: types.StringValue("b-1"), Tags: tags}
	diags := forgetMovedTags(context.Background(), &state, map[string]string{"stable": "b-2", "old": ""})
	var kept []string
	state.Tags.ElementsAs(context.Background(), &kept, false)
	if !slices.Equal(kept, []string{"v1"}) || diags.HasError() || diags.WarningsCount() != 2 {
		t.Fatalf("tags %v, diagnostics %v: want v1 kept and two warnings", kept, diags)
	}
	for i, want := range []string{`Tag "old" of template "py" no longer exists`, `Tag "stable" of template "py" starts build b-2, not build b-1`} {
		detail := diags.Warnings()[i].Detail()
		for _, says := range []string{want, "sandbox_template_tag of the same name", "hand edit", "points it back at build b-1", "let only one of them manage it"} {
			if !strings.Contains(detail, says) {
				t.Errorf("warning %q does not say %q", detail, says)
			}
		}
	}
}

// TestAccTemplateAdoptedBuildGetsItsTags: a create that adopts a kept build of the same inputs
// (the resource was removed with keep_remotely, then declared again with a tag) gives that build
// its tags: the record says each of them starts it, and without this none did (py:v2 was a 404).
func TestAccTemplateAdoptedBuildGetsItsTags(t *testing.T) {
	emu := e2bEmulator(t)
	var built string
	kept := pyBody + "  packages      = [\"pkg-a\"]\n  keep_remotely = true\n"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: e2bTemplate(emu, kept), Check: capture(&built)},
			{Config: e2bProvider(emu)},
			{
				Config: e2bTemplate(emu, kept+"  tags          = [\"v2\"]\n"),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(resourceName, "status", "SKIPPED"),
					resource.TestCheckResourceAttrPtr(resourceName, "build_id", &built),
					starts(emu, "py:v2", &built), registrations(emu, 1)),
			},
			{Config: e2bTemplate(emu, kept+"  tags          = [\"v2\"]\n"), PlanOnly: true},
		},
	})
}
