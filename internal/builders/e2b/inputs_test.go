package e2b

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestEnsureAdoptsOnlyMatchingInputs: a run that lost its state (kill -9 mid-build) finds the
// finished template. It is adopted only when its usable build was made from the same inputs;
// otherwise it is rebuilt, saying why. A template built elsewhere cannot be compared: adopted, saying so.
func TestEnsureAdoptsOnlyMatchingInputs(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	specA := builders.TemplateSpec{TemplateID: "crash", Image: ciImage, Packages: []string{"pkg-a==1.0"}}
	specB := specA
	specB.Packages = []string{"pkg-b==2.0"}

	mustBuild(t, b, specA) // the build whose state was lost
	got := builders.Ensure(t.Context(), b, specB, builders.Observer{})
	if got.Status != builders.StatusSuccess || countLines(got.Logs, "built from other inputs") != 1 {
		t.Fatalf("Ensure with other inputs = %s %q %q, want SUCCESS: rebuilt, saying why", got.Status, got.Detail, got.Logs)
	}
	if got := builders.Ensure(t.Context(), b, specB, builders.Observer{}); got.Status != builders.StatusSkipped || !strings.Contains(got.Detail, "built from these inputs") {
		t.Errorf("Ensure with the same inputs = %s %q, want SKIPPED", got.Status, got.Detail)
	}
	// default now points at B's build: A's older build still carries its inputs tag, and must not count.
	if got := builders.Ensure(t.Context(), b, specA, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Errorf("Ensure back to the first inputs = %s %q, want SUCCESS (a rebuild: default resolves to B's build)", got.Status, got.Detail)
	}
	if n := len(emu.BuildStarts()); n != 3 {
		t.Errorf("%d builds, want 3", n)
	}

	emu.SeedReadyTemplate("elsewhere")
	if got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "elsewhere", Image: ciImage}, builders.Observer{}); got.Status != builders.StatusSkipped ||
		!strings.Contains(got.Detail, "could not be compared") {
		t.Errorf("Ensure of a template without recorded inputs = %s %q, want SKIPPED saying it could not compare", got.Status, got.Detail)
	}
}

// TestInputsTagFitsE2BsTagRule: every build is registered with inputs-<fingerprint>, which E2B
// refuses unless it matches its tag rule (builders.TestFingerprintCoversEveryBuildInput covers
// what the fingerprint reads).
func TestInputsTagFitsE2BsTagRule(t *testing.T) {
	spec := builders.TemplateSpec{TemplateID: "a", Image: ciImage, Packages: []string{"x"}, RebuildTriggers: map[string]string{"Req": "H1 /x"}}
	if tag := inputsTag(spec.Fingerprint()); !inputsTagPattern.MatchString(tag) {
		t.Errorf("tag %q breaks E2B's tag rule", tag)
	}
}
