package e2b

import (
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestCandidateBuildsDoNotGoLive: a candidate is registered with its inputs tag and its own tags,
// never `default`, so the plain name keeps starting the build it started; its refresh follows its
// own build, in one request, whatever the plain name serves; a spec that is not a candidate gets
// its tags beside `default`.
func TestCandidateBuildsDoNotGoLive(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	live := builders.TemplateSpec{TemplateID: "py", Image: ciImage, Tags: []string{"v1"}}
	liveBuild := mustBuild(t, b, live).BuildID
	candidate := builders.TemplateSpec{TemplateID: "py", Image: ciImage, Packages: []string{"numpy"}, Tags: []string{"git-abc"}, Candidate: true}
	candidateBuild := mustBuild(t, b, candidate).BuildID

	info, _ := emu.Template("py")
	for _, build := range info.Builds {
		want := []string{inputsTag(live.Fingerprint()), usableTag, "v1"}
		if build.BuildID == candidateBuild {
			want = []string{inputsTag(candidate.Fingerprint()), "git-abc"}
		}
		if got := slices.Sorted(slices.Values(build.Tags)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
			t.Errorf("build %s was registered with %v, want %v", build.BuildID, got, want)
		}
	}
	if got, err := b.Serving(t.Context(), "py", false, liveBuild); err != nil || got != liveBuild {
		t.Errorf("the plain name serves %q, %v after a candidate build; want the live build %s", got, err, liveBuild)
	}
	before := len(emu.Requests())
	if got, err := b.Serving(t.Context(), "py", true, candidateBuild); err != nil || got != candidateBuild || len(emu.Requests()) != before+1 {
		t.Errorf("a candidate's refresh = %q, %v after %d requests; want its own build after one", got, err, len(emu.Requests())-before)
	}
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "py", Image: ciImage, Packages: []string{"pandas"}}) // a new live build
	if got, err := b.Serving(t.Context(), "py", true, candidateBuild); err != nil || got != candidateBuild {
		t.Errorf("after a live build, a candidate's refresh = %q, %v; want its own build still", got, err)
	}
	if err := b.Delete(t.Context(), "py"); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Serving(t.Context(), "py", true, candidateBuild); err != nil || got != "" {
		t.Errorf("after delete, a candidate's refresh = %q, %v; want none", got, err)
	}
}

// TestCandidateAdoptsOnlyAReadyBuildOfItsInputs: a candidate whose state was lost adopts a ready
// build of its inputs, even on a template whose plain name starts nothing or another build; with
// other inputs it builds.
func TestCandidateAdoptsOnlyAReadyBuildOfItsInputs(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	candidate := builders.TemplateSpec{TemplateID: "cand", Image: ciImage, Candidate: true}
	built := mustBuild(t, b, candidate).BuildID
	got := builders.Ensure(t.Context(), b, candidate, builders.Observer{})
	if got.Status != builders.StatusSkipped || got.BuildID != built {
		t.Errorf("Ensure of a built candidate = %s %q (build %s), want SKIPPED adopting %s", got.Status, got.Detail, got.BuildID, built)
	}
	other := candidate
	other.Packages = []string{"numpy"}
	if got := builders.Ensure(t.Context(), b, other, builders.Observer{}); got.Status != builders.StatusSuccess || got.BuildID == built {
		t.Errorf("Ensure of a candidate of other inputs = %s %q (build %s), want a new build", got.Status, got.Detail, got.BuildID)
	}
	if usable, err := b.IsUsable(t.Context(), "cand"); usable || err != nil {
		t.Errorf("the plain name after candidate builds only: usable %v, %v; want false", usable, err)
	}
}

// TestTagsMoveBetweenBuilds: a tag points at the ready build its target names (a tag, a build id,
// or `default`), moves without a build, and goes without touching the builds; a target that names
// no ready build is refused.
func TestTagsMoveBetweenBuilds(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	first := mustBuild(t, b, builders.TemplateSpec{TemplateID: "py", Image: ciImage, Tags: []string{"v1"}}).BuildID
	second := mustBuild(t, b, builders.TemplateSpec{TemplateID: "py", Image: ciImage, Packages: []string{"numpy"}}).BuildID
	builds := len(emu.BuildStarts())

	for target, want := range map[string]string{"v1": first, second: second, usableTag: second, first: first} {
		if got, err := b.Resolve(t.Context(), "py", target); err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %s", target, got, err, want)
		}
		if got, err := b.MoveTags(t.Context(), "py", target, []string{"prod"}); err != nil || got != want {
			t.Errorf("MoveTags(prod -> %s) = %q, %v; want %s", target, got, err, want)
		}
		if tags, err := b.Tags(t.Context(), "py"); err != nil || tags["prod"] != want {
			t.Errorf("after moving prod to %s, Tags = %v, %v", target, tags, err)
		}
	}
	if _, err := b.MoveTags(t.Context(), "py", "nope", []string{"prod"}); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("moving to a tag no ready build carries = %v, want E2B's 404", err)
	}
	if err := b.RemoveTags(t.Context(), "py", []string{"prod"}); err != nil {
		t.Fatal(err)
	}
	if tags, _ := b.Tags(t.Context(), "py"); tags["prod"] != "" || tags["v1"] != first {
		t.Errorf("after removing prod, Tags = %v; want prod gone and v1 kept", tags)
	}
	if n := len(emu.BuildStarts()); n != builds {
		t.Errorf("moving and removing tags started %d builds", n-builds)
	}
	if err := b.Delete(t.Context(), "py"); err != nil {
		t.Fatal(err)
	}
	if tags, err := b.Tags(t.Context(), "py"); tags != nil || err != nil {
		t.Errorf("Tags of a deleted template = %v, %v; want none", tags, err)
	}
	if err := b.RemoveTags(t.Context(), "py", []string{"v1"}); err != nil {
		t.Errorf("RemoveTags of a deleted template = %v, want nil", err)
	}
}

// TestTagRules are E2B's (packages/shared/pkg/id/id.go) plus the provider's reserved prefix.
func TestTagRules(t *testing.T) {
	for tag, want := range map[string]string{
		"prod": "", "v1.2_3-rc": "", "Prod": "lower-case", "a b": "lower-case", "": "lower-case",
		"0b2a3f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b": "cannot be a UUID", "inputs-0123": "reserved",
	} {
		got := tagRules.TagProblem(tag)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("TagProblem(%q) = %q, want %q", tag, got, want)
		}
	}
	if got := targetProblem("0b2a3f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b"); got != "" {
		t.Errorf("a build id as a target = %q, want valid", got)
	}
}
