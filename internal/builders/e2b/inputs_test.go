package e2b

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestEnsureAdoptsOnlyMatchingInputs: a run that lost its state (kill -9 mid-build) finds the
// finished template. It is adopted only when its usable build was made from the same inputs;
// otherwise it is rebuilt, saying why. A template built elsewhere cannot be compared: rebuilt too.
func TestEnsureAdoptsOnlyMatchingInputs(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	specA := builders.TemplateSpec{TemplateID: "crash", Image: ciImage, Packages: []string{"pkg-a==1.0"}}
	specB := specA
	specB.Packages = []string{"pkg-b==2.0"}

	mustBuild(t, b, specA) // the build whose state was lost
	got := builders.Ensure(t.Context(), b, specB, builders.Observer{})
	if got.Status != builders.StatusSuccess || countLines(got.Warnings, "built from other inputs") != 1 {
		t.Fatalf("Ensure with other inputs = %s %q %q, want SUCCESS: rebuilt, with a warning saying why", got.Status, got.Detail, got.Warnings)
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

	// Built by another tool: nothing to compare, so it is rebuilt, saying so (an import adopts it as is).
	emu.SeedReadyTemplate("elsewhere")
	if got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "elsewhere", Image: ciImage}, builders.Observer{}); got.Status != builders.StatusSuccess ||
		countLines(got.Warnings, "no record of the inputs") != 1 {
		t.Errorf("Ensure of a template without recorded inputs = %s %q, want SUCCESS from a build, with a warning", got.Status, got.Warnings)
	}
}

// TestInputsTagFitsE2BsTagRule: every build is registered with inputs-<fingerprint>, which E2B
// refuses unless it matches its tag rule (builders.TestFingerprintCoversEveryBuildInput covers
// what the fingerprint reads).
func TestInputsTagFitsE2BsTagRule(t *testing.T) {
	spec := builders.TemplateSpec{TemplateID: "a", Image: ciImage, Packages: []string{"x"}, RebuildTriggers: map[string]string{"Req": "H1 /x"}}
	if tag := inputsTag(spec.Fingerprint()); tagProblem(tag) != "" {
		t.Errorf("tag %q breaks E2B's tag rule", tag)
	}
}

// TestFailedRebuildIsNotAdoptedLater: pkg-a builds; the rebuild to pkg-b fails. E2B has already
// tagged the failed build `default` and inputs-<pkg-b> (register_build.go), and GET /tags lists
// those assignments whatever the build's status, while sandboxes still start from the pkg-a build.
// A retry of pkg-b must build again, and Ensure after the failure must not call it a concurrent
// winner: either would record pkg-b while E2B serves pkg-a.
func TestFailedRebuildIsNotAdoptedLater(t *testing.T) {
	retries := map[string]func(context.Context, builders.Builder, builders.TemplateSpec, builders.Observer) builders.TemplateBuildResult{
		"the update retried": builders.Rebuild, "a create after the state was lost": builders.Ensure,
	}
	for name, retry := range retries {
		t.Run(name, func(t *testing.T) {
			emu := newEmulator(t)
			b := newTestBuilder(t, emu)
			specA := builders.TemplateSpec{TemplateID: "pkgs", Image: ciImage, Packages: []string{"pkg-a"}}
			specB := specA
			specB.Packages = []string{"pkg-b"}
			mustBuild(t, b, specA)

			emu.FailBuild("pkgs", "pip install exited with code 1")
			if got := builders.Ensure(t.Context(), b, specB, builders.Observer{}); got.Status != builders.StatusFailed {
				t.Fatalf("failed build of pkg-b = %s %q, want FAILED (the template serves pkg-a's older build)", got.Status, got.Detail)
			}
			if got := retry(t.Context(), b, specB, builders.Observer{}); got.Status != builders.StatusSuccess || len(emu.BuildStarts()) != 3 {
				t.Errorf("retry of pkg-b = %s %q after %d builds, want SUCCESS from a third build", got.Status, got.Detail, len(emu.BuildStarts()))
			}
		})
	}
}

// TestBadAnswersAreFailuresNotSkips: a status answer that is not JSON, or a registration answered
// without ids, fails the build; neither is taken for a concurrent builder's win over an older
// usable build, and no request is sent to an empty template or build id.
func TestBadAnswersAreFailuresNotSkips(t *testing.T) {
	for name, answer := range map[string]struct{ path, body string }{
		"status not JSON":    {"/status", "<html>gateway</html>"},
		"create without ids": {"/v3/templates", "{}"},
	} {
		t.Run(name, func(t *testing.T) {
			emu := newEmulator(t)
			spec := builders.TemplateSpec{TemplateID: "bad", Image: ciImage, Packages: []string{"pkg-a"}}
			mustBuild(t, newTestBuilder(t, emu), spec)
			emu.HangBuild("bad") // the build never finishes: only our reading of it fails
			b := newTestBuilder(t, emu, func(c *Config) {
				c.HTTPClient = &http.Client{Transport: answerWith(http.DefaultTransport, answer.path, answer.body)}
			})
			spec.Packages = []string{"pkg-b"}
			got := builders.Ensure(t.Context(), b, spec, builders.Observer{})
			if got.Status != builders.StatusFailed {
				t.Errorf("Ensure = %s %q, want FAILED", got.Status, got.Detail)
			}
			if n := emu.CountRequests("POST", "/v2/templates//builds/"); n != 0 {
				t.Errorf("%d build starts sent to an empty template id", n)
			}
		})
	}
}
