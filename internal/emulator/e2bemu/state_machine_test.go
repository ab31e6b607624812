package e2bemu_test

import (
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestBuildStateMachineFollowsTheClock: waiting → building → ready, moved by a test clock; the
// tag is assigned from the request on, and resolves to a ready build only once the build is ready.
func TestBuildStateMachineFollowsTheClock(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: time.Minute, Clock: clock.Now})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	if got := c.status(b)["status"]; got != "waiting" {
		t.Errorf("before start: %v, want waiting", got)
	}
	c.start(b, fromPython)
	clock.Advance(time.Minute - time.Second)
	if got := c.status(b)["status"]; got != "building" {
		t.Errorf("just before the build duration: %v, want building", got)
	}
	if info, _ := emu.Template("py"); len(info.Tags) != 1 || len(info.ReadyTags) != 0 || info.BuildStatus != "building" {
		t.Errorf("a building template = %+v, want its tag assigned, not ready", info)
	}
	clock.Advance(time.Second)
	info := c.status(b)
	if info["status"] != "ready" || info["reason"] != nil {
		t.Errorf("at the build duration: %v, want ready without a reason", info)
	}
	if tpl, _ := emu.Template("py"); len(tpl.ReadyTags) != 1 || tpl.ReadyTags[0] != "default" || tpl.BuildStatus != "ready" {
		t.Errorf("a ready template = %+v, want default ready", tpl)
	}
}

// TestZeroDurationIsReadyAtFirstPoll: no clock needed on the happy path.
func TestZeroDurationIsReadyAtFirstPoll(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py", "tags": []string{"v1", "latest"}})
	c.start(b, fromPython)
	if got := c.status(b)["status"]; got != "ready" {
		t.Fatalf("first poll = %v, want ready", got)
	}
	if info, _ := emu.Template("py"); len(info.Tags) != 2 || info.Tags[0] != "latest" || info.Tags[1] != "v1" {
		t.Errorf("tags = %v, want the requested ones, sorted", info.Tags)
	}
}

// TestFailBuildFailsOnlyTheNextBuild: error with reason and error entries, the tag stays assigned
// to the failed build without resolving to it; a rebuild succeeds and takes the tag.
func TestFailBuildFailsOnlyTheNextBuild(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.FailBuild("py", "exit code 1")
	c := newCaller(t, emu)
	failing := c.create(map[string]any{"name": "py"})
	c.start(failing, fromPython)
	info := c.status(failing)
	reason, _ := info["reason"].(map[string]any)
	reasonEntries, _ := reason["logEntries"].([]any)
	if info["status"] != "error" || reason["message"] != "exit code 1" || len(reasonEntries) == 0 {
		t.Errorf("failed build = %v, want error with the reason and its log entries", info)
	}
	if tpl, _ := emu.Template("py"); len(tpl.Tags) != 1 || len(tpl.ReadyTags) != 0 || tpl.BuildStatus != "error" {
		t.Errorf("after a failed build = %+v, want error, the tag assigned and not ready", tpl)
	}
	next := c.create(map[string]any{"name": "py"})
	c.start(next, fromPython)
	if got := c.status(next)["status"]; got != "ready" {
		t.Errorf("the build after the failure = %v, want ready", got)
	}
	if tpl, _ := emu.Template("py"); len(tpl.ReadyTags) != 1 {
		t.Errorf("after the rebuild = %+v, want default ready", tpl)
	}
}

// TestHangBuildNeverFinishes: a hung build stays building however far the clock moves, until
// released; hanging also catches a build that already started.
func TestHangBuildNeverFinishes(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: time.Minute, Clock: clock.Now})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	c.start(b, fromPython)
	emu.HangBuild("py")
	clock.Advance(1000 * time.Hour)
	if got := c.status(b)["status"]; got != "building" {
		t.Errorf("a hung build = %v, want building", got)
	}
	if tpl, _ := emu.Template("py"); len(tpl.ReadyTags) != 0 {
		t.Errorf("a hung build made its tag ready: %v", tpl.ReadyTags)
	}
	emu.ReleaseBuild("py")
	if got := c.status(b)["status"]; got != "ready" {
		t.Errorf("after ReleaseBuild = %v, want ready", got)
	}
}

// TestLogsOffsetPagesThroughEntries: a poller that advances logsOffset by what it got sees each
// entry once.
func TestLogsOffsetPagesThroughEntries(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	steps := []any{}
	for range 5 {
		steps = append(steps, map[string]any{"type": "RUN", "args": []string{"echo"}})
	}
	c.start(b, map[string]any{"fromImage": "python", "steps": steps})
	all, _ := c.status(b)["logEntries"].([]any)
	seen := 0
	for offset := 0; ; {
		_, _, page, _ := c.call("GET", b.statusPath()+"?limit=2&logsOffset="+itoa(offset), nil)
		entries, _ := page["logEntries"].([]any)
		got := len(entries)
		if got == 0 {
			break
		}
		if logs, _ := page["logs"].([]any); len(logs) != got {
			t.Fatalf("logs and logEntries differ in length: %v", page)
		}
		seen, offset = seen+got, offset+got
	}
	if seen != len(all) || len(all) < 7 {
		t.Errorf("paged %d entries of %d (want base + 5 steps + ready at least)", seen, len(all))
	}
}
