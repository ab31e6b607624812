package e2b

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestFailedFirstBuildIsFailedNotSkipped: E2B tags the template when the build is requested, so
// after a failed first build the alias has a tag. That must not read as "a concurrent builder won".
func TestFailedFirstBuildIsFailedNotSkipped(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	emu.FailBuild("first", "pip install exited with code 1")
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "first", Image: ciImage}, builders.Observer{})
	if got.Status != builders.StatusFailed || got.Stage != builders.StageTemplateBuild {
		t.Fatalf("Ensure = %s/%s %q, want FAILED/TEMPLATE_BUILD", got.Status, got.Stage, got.Detail)
	}
	if info, _ := emu.Template("first"); len(info.Tags) == 0 {
		t.Fatalf("the emulator did not tag the template at registration (%+v): this test would prove nothing", info)
	}
	if usable, err := b.IsUsable(t.Context(), "first"); err != nil || usable {
		t.Errorf("IsUsable of a template whose only build failed = %v, %v; want false", usable, err)
	}
}

// TestDefaultStartCommand: the design's default start command runs on E2B's code-interpreter
// image; on any other image the build fails at its start command, and the error says why and what
// to set. start_cmd = "" builds the same image with nothing started.
func TestDefaultStartCommand(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	if got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "ci", Image: ciImage}, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("default start command on %s = %+v, want SUCCESS", ciImage, got)
	}
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "slim", Image: "python:3.12-slim"}, builders.Observer{})
	if got.Status != builders.StatusFailed || !strings.Contains(got.Detail, "exit status 127") ||
		!strings.Contains(got.Detail, "set start_cmd") || !strings.Contains(got.Detail, `start_cmd = ""`) {
		t.Fatalf("default start command on python:3.12-slim = %s %q, want FAILED saying it was the default and what to set", got.Status, got.Detail)
	}
	if got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "slim", Image: "python:3.12-slim", StartCmd: ptr("")}, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf(`start_cmd = "" on python:3.12-slim = %+v, want SUCCESS`, got)
	}
	got = builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "custom", Image: "python:3.12-slim", StartCmd: ptr("/app/missing.sh")}, builders.Observer{})
	if got.Status != builders.StatusFailed || strings.Contains(got.Detail, "was the default") {
		t.Errorf("a failing custom start command = %s %q, want FAILED without the default's hint", got.Status, got.Detail)
	}
}

// TestBuildLimitIsWaitedOut: E2B's team build limit answers 429 until one of the team's builds
// ends. Templates past the limit wait for a slot and all of them build, none fails.
func TestBuildLimitIsWaitedOut(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testAPIKey, BuildConcurrency: 2, BuildDuration: 30 * time.Millisecond})
	b := newTestBuilder(t, emu)
	results := make([]builders.TemplateBuildResult, 6)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			results[i] = builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "limited-" + string(rune('a'+i)), Image: ciImage}, builders.Observer{})
		})
	}
	wg.Wait()
	waited := 0
	for i, r := range results {
		if r.Status != builders.StatusSuccess {
			t.Errorf("template %d = %s %q, want SUCCESS", i, r.Status, r.Detail)
		}
		waited += countLines(r.Logs, "waiting for a free build slot")
	}
	if waited == 0 {
		t.Error("no build waited for a slot: the limit of 2 was never reached, so this proves nothing")
	}
	if n := len(emu.BuildStarts()); n != len(results) {
		t.Errorf("%d builds started, want %d", n, len(results))
	}
}

// TestConcurrentBuilderThatWinsIsSkipped: starting a build cancels the template's other builds
// in flight (CheckAndCancelConcurrentBuilds). The cancelled builder waits for the winner and, once
// the winner's build is ready, reports SKIPPED; if the winner fails, it builds again.
func TestConcurrentBuilderThatWinsIsSkipped(t *testing.T) {
	for _, winnerFails := range []bool{false, true} {
		emu := newEmulator(t)
		b := newTestBuilder(t, emu)
		spec := builders.TemplateSpec{TemplateID: "race", Image: ciImage}
		emu.HangBuild("race")
		first := make(chan builders.TemplateBuildResult, 1)
		go func() { first <- builders.Ensure(t.Context(), b, spec, builders.Observer{}) }()
		waitFor(t, func() bool { return len(emu.BuildStarts()) == 1 })
		if winnerFails {
			emu.FailBuild("race", "pip install exited with code 1") // the next build started fails
		}
		second := make(chan builders.TemplateBuildResult, 1)
		go func() { second <- builders.Ensure(t.Context(), b, spec, builders.Observer{}) }()
		waitFor(t, func() bool { return len(emu.BuildStarts()) == 2 })
		emu.ReleaseBuild("race")
		loser, winner := <-first, <-second
		switch {
		case !winnerFails && (winner.Status != builders.StatusSuccess || loser.Status != builders.StatusSkipped):
			t.Errorf("winner %s, cancelled builder %s %q; want SUCCESS and SKIPPED", winner.Status, loser.Status, loser.Detail)
		case winnerFails && (!failedOrLostTheRace(winner) || loser.Status != builders.StatusSuccess ||
			countLines(loser.Logs, "building again") != 1):
			// The cancelled build never ran its own inputs: it is built again, never SKIPPED on a failed winner.
			t.Errorf("failed winner %s %q, cancelled builder %s %q; want FAILED, and SUCCESS after building again", winner.Status, winner.Detail, loser.Status, loser.Logs)
		}
	}
}

// failedOrLostTheRace: a failed build is FAILED, unless the builder it cancelled has rebuilt the
// same inputs by the time Ensure looks again, which Ensure then adopts as a concurrent winner and
// says so (emulated builds take milliseconds, so that can happen).
func failedOrLostTheRace(r builders.TemplateBuildResult) bool {
	return r.Status == builders.StatusFailed ||
		(r.Status == builders.StatusSkipped && strings.Contains(r.Detail, "a concurrent builder won (") && strings.Contains(r.Detail, "pip install exited with code 1"))
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 10 s")
		}
	}
}
