package e2b

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestServingFollowsTheReadyBuildDefaultResolvesTo: a refresh asks which build sandboxes start from.
// While it is the recorded one, one request answers; a newer build that failed leaves the recorded
// one served; a newer ready build (another configuration's) replaces it; a deleted template serves
// nothing.
func TestServingFollowsTheReadyBuildDefaultResolvesTo(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "srv", Image: ciImage}
	recorded := mustBuild(t, b, spec).BuildID
	if recorded == "" {
		t.Fatal("a successful build must say which build it made")
	}

	before := len(emu.Requests())
	if got, err := b.Serving(t.Context(), "srv", false, recorded); err != nil || got != recorded || len(emu.Requests()) != before+1 {
		t.Errorf("Serving = %q, %v after %d requests, want the recorded build after one", got, err, len(emu.Requests())-before)
	}

	emu.FailBuild("srv", "pip install exited with code 1")
	failing := spec
	failing.Packages = []string{"broken"}
	if _, err := b.Build(t.Context(), failing, builders.Observer{}); err == nil {
		t.Fatal("the armed build must fail")
	}
	if got, err := b.Serving(t.Context(), "srv", false, recorded); err != nil || got != recorded {
		t.Errorf("after a newer build failed, Serving = %q, %v; want the recorded build %s", got, err, recorded)
	}

	other := spec
	other.Packages = []string{"numpy"}
	replacement := mustBuild(t, b, other).BuildID
	if got, err := b.Serving(t.Context(), "srv", false, recorded); err != nil || got != replacement {
		t.Errorf("after another build replaced it, Serving = %q, %v; want %s", got, err, replacement)
	}

	if err := b.Delete(t.Context(), "srv"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Serving(t.Context(), "srv", false, replacement); err != nil || got != "" {
		t.Errorf("after delete, Serving = %q, %v; want none", got, err)
	}
}
