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
	// sudo cannot find the script: "sudo: ...: command not found", exit 1.
	if got.Status != builders.StatusFailed || !strings.Contains(got.Detail, "start command failed") ||
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

// TestConcurrentRunOfTheSameInputsWaitsForTheRunningBuild: a second run of the same configuration
// (or a retry after the first stopped waiting) finds the first run's build of these inputs running
// and waits for it instead of starting another one, which would cancel it
// (CheckAndCancelConcurrentBuilds). When that build fails, the waiting run builds again.
func TestConcurrentRunOfTheSameInputsWaitsForTheRunningBuild(t *testing.T) {
	for _, firstFails := range []bool{false, true} {
		emu := newEmulator(t)
		b := newTestBuilder(t, emu)
		spec := builders.TemplateSpec{TemplateID: "race", Image: ciImage}
		emu.HangBuild("race")
		if firstFails {
			emu.FailBuild("race", "pip install exited with code 1") // the next build started fails
		}
		first := make(chan builders.TemplateBuildResult, 1)
		go func() { first <- builders.Ensure(t.Context(), b, spec, builders.Observer{}) }()
		waitFor(t, func() bool { return len(emu.BuildStarts()) == 1 })
		var lines []string
		var mu sync.Mutex
		second := make(chan builders.TemplateBuildResult, 1)
		go func() {
			second <- builders.Ensure(t.Context(), b, spec, builders.Observer{OnProgress: func(l string) { mu.Lock(); lines = append(lines, l); mu.Unlock() }})
		}()
		waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return countLines(lines, "already running") == 1 })
		emu.ReleaseBuild("race")
		firstResult, secondResult := <-first, <-second
		switch {
		case !firstFails && (firstResult.Status != builders.StatusSuccess || secondResult.Status != builders.StatusSkipped ||
			!strings.Contains(secondResult.Detail, "adopted, not built again") || len(emu.BuildStarts()) != 1):
			t.Errorf("first %s, second %s %q, %d builds; want SUCCESS and SKIPPED from one build", firstResult.Status, secondResult.Status,
				secondResult.Detail, len(emu.BuildStarts()))
		case firstFails && (!failedOrLostTheRace(firstResult) || secondResult.Status != builders.StatusSuccess ||
			countLines(secondResult.Logs, "did not succeed") != 1 || len(emu.BuildStarts()) != 2):
			t.Errorf("failed first %s %q, second %s %q; want FAILED, and SUCCESS after building again", firstResult.Status,
				firstResult.Detail, secondResult.Status, secondResult.Logs)
		}
	}
}

// TestConcurrentBuildOfOtherInputsCancelsOurs: starting a build cancels the template's other builds
// in flight (CheckAndCancelConcurrentBuilds). The cancelled run waits for the other build; once it is
// ready the cancelled run is FAILED (that build was made from other inputs: never SKIPPED), and if
// the other build fails too, the cancelled run builds again.
func TestConcurrentBuildOfOtherInputsCancelsOurs(t *testing.T) {
	for _, otherFails := range []bool{false, true} {
		emu := newEmulator(t)
		b := newTestBuilder(t, emu)
		ours := builders.TemplateSpec{TemplateID: "race", Image: ciImage}
		other := ours
		other.Packages = []string{"numpy"}
		emu.HangBuild("race")
		first := make(chan builders.TemplateBuildResult, 1)
		go func() { first <- builders.Ensure(t.Context(), b, ours, builders.Observer{}) }()
		waitFor(t, func() bool { return len(emu.BuildStarts()) == 1 })
		if otherFails {
			emu.FailBuild("race", "pip install exited with code 1") // the next build started fails
		}
		second := make(chan builders.TemplateBuildResult, 1)
		go func() { second <- builders.Ensure(t.Context(), b, other, builders.Observer{}) }()
		waitFor(t, func() bool { return len(emu.BuildStarts()) == 2 })
		emu.ReleaseBuild("race")
		cancelled, winner := <-first, <-second
		switch {
		case !otherFails && (winner.Status != builders.StatusSuccess || cancelled.Status != builders.StatusFailed):
			t.Errorf("other %s, cancelled %s %q; want SUCCESS and FAILED", winner.Status, cancelled.Status, cancelled.Detail)
		case otherFails && (winner.Status != builders.StatusFailed || cancelled.Status != builders.StatusSuccess ||
			countLines(cancelled.Logs, "building again") != 1):
			t.Errorf("failed other %s %q, cancelled %s %q; want FAILED, and SUCCESS after building again", winner.Status, winner.Detail, cancelled.Status, cancelled.Logs)
		}
	}
}

// failedOrLostTheRace: a failed build is FAILED, unless the builder it cancelled has rebuilt the
// same inputs by the time Ensure looks again, which Ensure then adopts as a concurrent winner and
// says so (emulated builds take milliseconds, so that can happen).
func failedOrLostTheRace(r builders.TemplateBuildResult) bool {
	return r.Status == builders.StatusFailed ||
		(r.Status == builders.StatusSkipped && strings.Contains(r.Detail, "a concurrent builder won") && strings.Contains(r.Detail, "pip install exited with code 1"))
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached within 10 s")
		}
	}
}
