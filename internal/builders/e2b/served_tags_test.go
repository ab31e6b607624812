package e2b

import (
	"maps"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestServingAndTagsTellsWhichTagsMoved: the refresh of a record with tags learns, from the GET /tags
// answer it reads anyway, which of them no longer start the served build: none costs no request more
// than Serving; one moved by hand names the build it starts now, one removed names none; one whose
// newest assignment is a build that failed still starts the served build, so is not reported.
func TestServingAndTagsTellsWhichTagsMoved(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "py", Image: ciImage, Tags: []string{"stable", "v1"}}
	older := mustBuild(t, b, spec).BuildID
	spec.Packages = []string{"numpy"}
	served := mustBuild(t, b, spec).BuildID
	tags := []string{"stable", "v1"}
	check := func(when string, candidate bool, requests int, want map[string]string) {
		t.Helper()
		before := len(emu.Requests())
		got, moved, err := b.ServingAndTags(t.Context(), "py", candidate, served, tags)
		if err != nil || got != served || !maps.Equal(moved, want) || len(emu.Requests())-before != requests {
			t.Errorf("%s: ServingAndTags = %q, %v, %v after %d requests; want %s, %v after %d", when, got, moved, err,
				len(emu.Requests())-before, served, want, requests)
		}
	}

	check("tags in place", false, 1, map[string]string{})
	check("a candidate's tags in place", true, 2, map[string]string{}) // its build by id, and the tags
	if _, err := b.MoveTags(t.Context(), "py", older, []string{"stable"}); err != nil {
		t.Fatal(err)
	}
	check("stable moved by hand", false, 2, map[string]string{"stable": older}) // and: is older ready?
	if err := b.RemoveTags(t.Context(), "py", []string{"stable"}); err != nil {
		t.Fatal(err)
	}
	check("stable removed", false, 1, map[string]string{"stable": ""})

	if _, err := b.MoveTags(t.Context(), "py", served, []string{"stable"}); err != nil {
		t.Fatal(err)
	}
	emu.FailBuild("py", "pip install exited with code 1")
	failing := builders.TemplateSpec{TemplateID: "py", Image: ciImage, Packages: []string{"broken"}, Tags: []string{"stable"}, Candidate: true}
	if _, err := b.Build(t.Context(), failing, builders.Observer{}); err == nil {
		t.Fatal("the armed build must fail")
	}
	check("a newer build of stable failed", false, 2, map[string]string{})
}
