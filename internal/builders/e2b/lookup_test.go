package e2b

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestUsableChecks runs IsUsable (before adopting) and StillUsable (refresh) over the same
// templates: both must agree on every state, and StillUsable must cost one request.
func TestUsableChecks(t *testing.T) {
	for _, check := range []struct {
		name     string
		usable   func(*Builder, context.Context, string) (bool, error)
		requests int
	}{
		{"IsUsable", (*Builder).IsUsable, 2},
		{"StillUsable", (*Builder).StillUsable, 1},
	} {
		t.Run(check.name, func(t *testing.T) {
			emu := newEmulator(t)
			b := newTestBuilder(t, emu)
			emu.SeedReadyTemplate("ready")
			emu.FailBuild("failed", "boom")
			if _, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "failed", Image: "python:3.12"}); err == nil {
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
				{"failed", false},   // the alias exists, but no build ever succeeded: no tag
				{"building", false}, // the first build has not finished
			} {
				before := len(emu.Requests())
				usable, err := check.usable(b, t.Context(), tt.alias)
				if err != nil || usable != tt.want {
					t.Errorf("%s(%s) = %v, %v; want %v", check.name, tt.alias, usable, err, tt.want)
				}
				if n := len(emu.Requests()) - before; tt.alias != "missing" && n != check.requests {
					t.Errorf("%s(%s) sent %d requests, want %d", check.name, tt.alias, n, check.requests)
				}
			}
			emu.DeleteTemplateOutOfBand("ready")
			if usable, err := check.usable(b, t.Context(), "ready"); err != nil || usable {
				t.Errorf("%s after an out-of-band delete = %v, %v; want false", check.name, usable, err)
			}
		})
	}
}

func TestIsUsableErrors(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	emu.SeedForeignTemplate("theirs", true)
	emu.SeedForeignTemplate("theirs-private", false)
	if _, err := b.IsUsable(t.Context(), "theirs"); builders.StageOf(err, "") != builders.StageTemplateLookup ||
		statusOf(err) != http.StatusForbidden || !strings.Contains(err.Error(), "another E2B team") {
		t.Errorf("another team's public alias = %v, want TEMPLATE_LOOKUP naming the other team: never adopted", err)
	}
	// A refresh re-checks a template the resource already manages, as sandboxes resolve it; a
	// public one of another team is usable that way, a private one is refused.
	if usable, err := b.StillUsable(t.Context(), "theirs"); err != nil || !usable {
		t.Errorf("StillUsable of a public template = %v, %v; want true", usable, err)
	}
	if _, err := b.StillUsable(t.Context(), "theirs-private"); builders.StageOf(err, "") != builders.StageTemplateLookup || statusOf(err) != http.StatusForbidden {
		t.Errorf("StillUsable of another team's private alias = %v, want TEMPLATE_LOOKUP naming the other team, not a template gone", err)
	}
	emu.FailNext(maxAttempts, http.StatusInternalServerError)
	if _, err := b.IsUsable(t.Context(), "py"); builders.StageOf(err, "") != builders.StageTemplateLookup || statusOf(err) != http.StatusInternalServerError {
		t.Errorf("persistent 500 = %v, want TEMPLATE_LOOKUP", err)
	}
}

func TestDelete(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "doomed", Image: "python:3.12"})
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
