package opensandbox

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// checkRequest builds s in h and returns the request a consumer of it would make: its newest
// snapshot, with the template's sandbox_entrypoint, sandbox_env, sandbox_workdir and sandbox_user.
func checkRequest(t *testing.T, h harness, s builders.TemplateSpec) builders.SandboxRequest {
	t.Helper()
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("build = %s at %s: %s", got.Status, got.Stage, got.Detail)
	}
	snapshot, err := h.b.ResolveSnapshotID(context.Background(), s.TemplateID)
	if err != nil {
		t.Fatal(err)
	}
	steps := s.StepsContext()
	return builders.SandboxRequest{TemplateID: s.TemplateID, Build: snapshot, Env: steps.Env, Workdir: steps.Workdir, User: steps.User,
		Entrypoint: SandboxEntrypoint(s.StartCmd), Lifetime: 5 * time.Minute, Labels: map[string]string{"sandboxtf-role": "check"}}
}

// TestStartSandboxAsAConsumer: a check's sandbox is restored from the snapshot with the template's
// entrypoint, environment, labels and a timeout, and its commands run as the template's user in
// its working directory, finding what the build installed and not what it did not; Close deletes it.
func TestStartSandboxAsAConsumer(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	user, workdir := "analyst", "/home/analyst/work"
	s := builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: ptr("sleep infinity"), Steps: []builders.BuildStep{
		{Pip: &builders.PipStep{Packages: []string{"pandas"}}},
		{Env: map[string]string{"MPLBACKEND": "Agg"}},
		{User: &user},
		{Workdir: &workdir},
	}}
	req := checkRequest(t, h, s)
	sb, err := h.b.StartSandbox(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var restored opensandboxemu.Sandbox
	for _, got := range h.emu.Sandboxes() {
		if got.ID == sb.ID() {
			restored = got
		}
	}
	if restored.SnapshotID != req.Build || !slices.Equal(restored.Entrypoint, []string{"sh", "-c", "sleep infinity"}) ||
		!maps.Equal(restored.Env, req.Env) || restored.Metadata["sandboxtf-role"] != "check" || restored.Timeout == nil || *restored.Timeout != 300 {
		t.Errorf("restored sandbox = %+v, want snapshot %s, the template's entrypoint and env, the labels and a 300 s timeout", restored, req.Build)
	}
	for command, want := range map[string]builders.CommandOutcome{
		"whoami":                         {Output: []byte("analyst\n")},
		"pwd":                            {Output: []byte(workdir + "\n")},
		"echo $MPLBACKEND $HOME":         {Output: []byte("Agg /home/analyst\n")},
		"python3 -c 'import pandas'":     {},
		"python3 -c 'import polars'":     {ExitCode: 1, Output: []byte("ModuleNotFoundError: No module named 'polars'")},
		"echo out; echo err >&2; exit 3": {ExitCode: 3, Output: []byte("out\nerr\n")},
	} {
		got, err := sb.Run(context.Background(), command)
		if err != nil || got.ExitCode != want.ExitCode || !strings.Contains(string(got.Output), string(want.Output)) {
			t.Errorf("%s = %d %q, %v; want %d %q", command, got.ExitCode, got.Output, err, want.ExitCode, want.Output)
		}
	}
	if err := sb.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sb.Close(context.Background()); err != nil {
		t.Errorf("closing a sandbox already gone: %v", err)
	}
	h.assertAllSandboxesDeleted(t)
}

// TestStartSandboxWhoseStartCommandEnds: a start command that ends ends the sandbox (bootstrap.sh),
// which is what a check reports, and the sandbox is deleted.
func TestStartSandboxWhoseStartCommandEnds(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	req := checkRequest(t, h, builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: ptr("")})
	req.Entrypoint = []string{"sh", "-c", "no-such-server --port 8000"}
	_, err := h.b.StartSandbox(context.Background(), req)
	if builders.StageOf(err, "") != builders.StageCheck || !strings.Contains(err.Error(), "its entrypoint sh -c no-such-server --port 8000 (sandbox_entrypoint) ended") {
		t.Errorf("err = %v", err)
	}
	h.assertAllSandboxesDeleted(t)
}

// TestRunThatNeverEndsIsCancelled: a command that never ends (a server run in the foreground)
// holds execd's stream open; a cancelled check stops waiting for it, and the sandbox still goes.
func TestRunThatNeverEndsIsCancelled(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	req := checkRequest(t, h, builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: ptr("")})
	ctx, cancel := context.WithCancel(context.Background())
	f := starterFunc(func(ctx context.Context, r builders.SandboxRequest) (builders.Sandbox, error) {
		sb, err := h.b.StartSandbox(ctx, r)
		if err == nil {
			go func() { // cancel once the command runs
				for len(h.emu.Sandboxes()[1].Commands) == 0 {
					time.Sleep(time.Millisecond)
				}
				cancel()
			}()
		}
		return sb, err
	})
	_, err := builders.RunCheck(ctx, f, req, []builders.CheckCommand{{Run: "sleep infinity"}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want cancelled", err)
	}
	h.assertAllSandboxesDeleted(t)
}

type starterFunc func(context.Context, builders.SandboxRequest) (builders.Sandbox, error)

func (f starterFunc) StartSandbox(ctx context.Context, req builders.SandboxRequest) (builders.Sandbox, error) {
	return f(ctx, req)
}

// TestStartSandboxDeletesChecksOfDeadRuns: a check's sandbox carries the check labels and what
// tells whether its run lives; the next check of the template deletes one whose run died on this
// host (a CLI killed mid-check), and not a live run's.
func TestStartSandboxDeletesChecksOfDeadRuns(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	req := checkRequest(t, h, builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: ptr("")})
	req.Labels = builders.CheckLabels("py")
	killed := checkMetadata(req)
	killed[metaPID] = strconv.Itoa(deadPID(t))
	var left sandbox
	if err := h.b.api.Do(context.Background(), apihttp.Request{Method: http.MethodPost, Path: "/sandboxes", Out: &left,
		In: restoreSandboxRequest{SnapshotID: req.Build, ResourceLimits: DefaultResourceLimits, Metadata: killed, Timeout: 600}}); err != nil {
		t.Fatal(err)
	}
	live, err := h.b.StartSandbox(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.b.StartSandbox(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	checks := 0
	for _, sb := range h.emu.Sandboxes() {
		if sb.Metadata[metaRole] != builders.CheckRole {
			continue
		}
		checks++
		if sb.Metadata[metaTemplate] != "py" || sb.Metadata[metaBuild] != req.Build || sb.Metadata[metaHost] != thisHost {
			t.Errorf("sandbox %s metadata %v: want the check labels, the build and this host", sb.ID, sb.Metadata)
		}
		if want := sb.ID == left.ID; sb.Deleted != want {
			t.Errorf("sandbox %s deleted = %v, want %v (left by a dead run: %s, live: %s)", sb.ID, sb.Deleted, want, left.ID, live.ID())
		}
	}
	if checks != 3 {
		t.Errorf("%d check sandboxes, want 3", checks)
	}
}

// BenchmarkCheckTrue is what one check of `true` costs against the emulator, from restoring the
// sandbox to the command's result and the sandbox's deletion (builders.RunCheck, as the resource
// runs it).
func BenchmarkCheckTrue(b *testing.B) {
	h := newHarness(b, opensandboxemu.Options{})
	if got := builders.Ensure(b.Context(), h.b, builders.TemplateSpec{TemplateID: "bench", Image: "python:3.12", StartCmd: ptr("")}, builders.Observer{}); got.Status != builders.StatusSuccess {
		b.Fatalf("build = %s: %s", got.Status, got.Detail)
	}
	snapshot, err := h.b.ResolveSnapshotID(b.Context(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	req := builders.SandboxRequest{TemplateID: "bench", Build: snapshot, Lifetime: time.Minute, Labels: builders.CheckLabels("bench")}
	for b.Loop() {
		if _, err := builders.RunCheck(b.Context(), h.b, req, []builders.CheckCommand{{Run: "true"}}); err != nil {
			b.Fatal(err)
		}
	}
}
