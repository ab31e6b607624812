package e2b

import (
	"net/http"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// TestIsUsable: a template is usable only when a READY build carries its default tag. E2B tags
// a template when a build is requested (register_build.go), so a failed or unfinished first
// build leaves a tag and still no usable template. One request answers it, refresh included.
func TestIsUsable(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	emu.SeedReadyTemplate("ready")
	emu.FailBuild("failed", "boom")
	if _, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "failed", Image: ciImage}, builders.Observer{}); err == nil {
		t.Fatal("the failing build succeeded")
	}
	emu.HangBuild("building")
	if _, err := b.api.createTemplate(t.Context(), templateBuildRequestV3{Name: "building", CPUCount: 2, MemoryMB: 1024}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		alias string
		want  bool
	}{
		{"ready", true},
		{"missing", false},
		{"failed", false},   // tagged at registration, but its only build failed
		{"building", false}, // tagged, the first build has not finished
	} {
		before := len(emu.Requests())
		usable, err := b.IsUsable(t.Context(), tt.alias)
		if err != nil || usable != tt.want {
			t.Errorf("IsUsable(%s) = %v, %v; want %v", tt.alias, usable, err, tt.want)
		}
		if n := len(emu.Requests()) - before; n != 1 {
			t.Errorf("IsUsable(%s) sent %d requests, want 1", tt.alias, n)
		}
	}
	emu.DeleteTemplateOutOfBand("ready")
	if usable, err := b.IsUsable(t.Context(), "ready"); err != nil || usable {
		t.Errorf("IsUsable after an out-of-band delete = %v, %v; want false", usable, err)
	}
}

// TestAnotherTeamsPromotedName: an alias that resolves to another team's promoted template is
// never adopted, yet E2B lets this team build its own template under that name in its namespace
// (handlers/template_request_build_v3.go), which then resolves first.
func TestAnotherTeamsPromotedName(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	emu.SeedForeignTemplate("theirs", true)
	if usable, err := b.IsUsable(t.Context(), "theirs"); err != nil || usable {
		t.Fatalf("IsUsable(another team's promoted alias) = %v, %v; want false, nil: not ours, not an error", usable, err)
	}
	result := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "theirs", Image: "e2bdev/code-interpreter:latest"}, builders.Observer{})
	if result.Status != builders.StatusSuccess {
		t.Fatalf("Ensure under another team's promoted name = %+v, want SUCCESS (built in our namespace)", result)
	}
	if usable, err := b.IsUsable(t.Context(), "theirs"); err != nil || !usable {
		t.Errorf("IsUsable of our own build = %v, %v; want true", usable, err)
	}
}

func TestIsUsableErrors(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	emu.FailNext(maxAttempts, http.StatusInternalServerError)
	if _, err := b.IsUsable(t.Context(), "py"); builders.StageOf(err, "") != builders.StageTemplateLookup || apihttp.StatusOf(err) != http.StatusInternalServerError {
		t.Errorf("persistent 500 = %v, want TEMPLATE_LOOKUP", err)
	}
	emu.FailNext(1, http.StatusUnauthorized)
	if _, err := b.IsUsable(t.Context(), "py"); builders.StageOf(err, "") != builders.StageAPIAuth {
		t.Errorf("401 = %v, want API_AUTH", err)
	}
}

func TestDelete(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "doomed", Image: ciImage})
	if err := b.Delete(t.Context(), "doomed"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, ok := emu.Template("doomed"); ok {
		t.Error("the template is still there")
	}
	before := emu.CountRequests("DELETE", "/templates/")
	if err := b.Delete(t.Context(), "doomed"); err != nil {
		t.Errorf("deleting a missing template = %v, want nil", err)
	}
	if n := emu.CountRequests("DELETE", "/templates/") - before; n != 1 {
		t.Errorf("%d DELETEs for a missing template, want 1 (a 404 is final)", n)
	}
	emu.FailNext(1, http.StatusUnauthorized)
	if err := b.Delete(t.Context(), "doomed"); builders.StageOf(err, "") != builders.StageAPIAuth {
		t.Errorf("401 on delete = %v, want API_AUTH", err)
	}
}
