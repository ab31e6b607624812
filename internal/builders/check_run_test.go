package builders

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeStarter starts fakeSandboxes whose commands answer from outcomes (by command) and records
// what happened to them.
type fakeStarter struct {
	outcomes map[string]CommandOutcome
	startErr error
	// runHook runs before each command's answer (to cancel the check mid-command).
	runHook  func(ctx context.Context, command string) error
	started  []SandboxRequest
	ran      []string
	closed   int
	closeCtx error // the close context's error when Close ran
	closeErr error
}

func (f *fakeStarter) StartSandbox(_ context.Context, req SandboxRequest) (Sandbox, error) {
	if f.startErr != nil {
		return nil, f.startErr
	}
	f.started = append(f.started, req)
	return &fakeSandbox{f}, nil
}

type fakeSandbox struct{ f *fakeStarter }

func (s *fakeSandbox) ID() string { return "sbx-1" }

func (s *fakeSandbox) Run(ctx context.Context, command string) (CommandOutcome, error) {
	s.f.ran = append(s.f.ran, command)
	if s.f.runHook != nil {
		if err := s.f.runHook(ctx, command); err != nil {
			return CommandOutcome{}, err
		}
	}
	return s.f.outcomes[command], nil
}

func (s *fakeSandbox) Close(ctx context.Context) error {
	s.f.closed++
	s.f.closeCtx = ctx.Err()
	return s.f.closeErr
}

func TestRunCheckPassesAndEndsTheSandbox(t *testing.T) {
	f := &fakeStarter{outcomes: map[string]CommandOutcome{
		"python -c 'import pandas'":  {ExitCode: 0},
		"curl -fsS localhost/health": {ExitCode: 0, Output: []byte("status: ok\n")},
		"test -e /nope":              {ExitCode: 1},
	}}
	report, err := RunCheck(context.Background(), f, SandboxRequest{TemplateID: "py", Build: "b-1"}, []CheckCommand{
		{Run: "python -c 'import pandas'"},
		{Run: "curl -fsS localhost/health", ExpectOutput: `\bok\b`},
		{Run: "test -e /nope", ExpectExitCode: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if f.closed != 1 || len(report.Results) != 3 || report.SandboxID != "sbx-1" {
		t.Fatalf("closed %d times, report %+v", f.closed, report)
	}
	for _, r := range report.Results {
		if !r.Passed {
			t.Errorf("%+v did not pass", r)
		}
	}
	if report.Results[1].Output != "status: ok" || report.Results[2].ExitCode != 1 {
		t.Errorf("results %+v", report.Results)
	}
}

func TestRunCheckStopsAtTheFirstFailure(t *testing.T) {
	var output strings.Builder
	for i := range 50 {
		output.WriteString("line " + string(rune('a'+i%26)) + "\n")
	}
	output.WriteString("ModuleNotFoundError: No module named 'polars'\n")
	f := &fakeStarter{outcomes: map[string]CommandOutcome{
		"python3 -c 'import polars'": {ExitCode: 1, Output: []byte(output.String())},
	}}
	report, err := RunCheck(context.Background(), f, SandboxRequest{Build: "b-1"}, []CheckCommand{
		{Run: "true"},
		{Run: "python3 -c 'import polars'"},
		{Run: "never runs"},
	})
	if StageOf(err, "") != StageCheck {
		t.Fatalf("err = %v, want a CHECK failure", err)
	}
	for _, want := range []string{"`python3 -c 'import polars'` exited with 1, want 0", "ModuleNotFoundError: No module named 'polars'"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Count(err.Error(), "\n  ") != CheckTailLines {
		t.Errorf("the error repeats %d lines of output, want the last %d:\n%s", strings.Count(err.Error(), "\n  "), CheckTailLines, err)
	}
	if strings.Join(f.ran, "|") != "true|python3 -c 'import polars'" || f.closed != 1 {
		t.Errorf("ran %q, closed %d times: want the failing command last and the sandbox ended", f.ran, f.closed)
	}
	if len(report.Results) != 2 || !report.Results[0].Passed || report.Results[1].Passed {
		t.Errorf("results %+v, want the first passed and the second failed", report.Results)
	}
}

func TestRunCheckOutputMustMatch(t *testing.T) {
	f := &fakeStarter{outcomes: map[string]CommandOutcome{"cat /etc/os-release": {Output: []byte("ID=debian\n")}}}
	_, err := RunCheck(context.Background(), f, SandboxRequest{}, []CheckCommand{{Run: "cat /etc/os-release", ExpectOutput: "ID=ubuntu"}})
	if err == nil || !strings.Contains(err.Error(), "exited with 0, but its output does not match \"ID=ubuntu\"; its output ends:\n  ID=debian") {
		t.Errorf("err = %v", err)
	}
}

// TestRunCheckEndsTheSandboxWhenCancelled: Ctrl-C cancels the check's context in the middle of a
// command; the sandbox is still ended, on a context that is not cancelled.
func TestRunCheckEndsTheSandboxWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeStarter{runHook: func(ctx context.Context, _ string) error {
		cancel()
		<-ctx.Done()
		return ctx.Err()
	}}
	_, err := RunCheck(ctx, f, SandboxRequest{}, []CheckCommand{{Run: "sleep 600"}})
	if StageOf(err, "") != StageCancelled {
		t.Errorf("err = %v, want CANCELLED", err)
	}
	if f.closed != 1 || f.closeCtx != nil {
		t.Errorf("closed %d times, on a context that is done: %v; want once, on a live one", f.closed, f.closeCtx)
	}
}

func TestRunCheckEndsTheSandboxOnAPanic(t *testing.T) {
	f := &fakeStarter{runHook: func(context.Context, string) error { panic("a bug") }}
	func() {
		defer func() { _ = recover() }()
		_, _ = RunCheck(context.Background(), f, SandboxRequest{}, []CheckCommand{{Run: "x"}})
	}()
	if f.closed != 1 {
		t.Errorf("closed %d times, want once", f.closed)
	}
}

func TestRunCheckThatCannotStart(t *testing.T) {
	f := &fakeStarter{startErr: errors.New("snapshot snap-1 not found")}
	_, err := RunCheck(context.Background(), f, SandboxRequest{Build: "snap-1"}, []CheckCommand{{Run: "true"}})
	if StageOf(err, "") != StageCheck || !strings.Contains(err.Error(), "starting a sandbox from build snap-1: snapshot snap-1 not found") {
		t.Errorf("err = %v", err)
	}
	if f.closed != 0 {
		t.Error("nothing started, nothing to end")
	}
}

func TestRunCheckWarnsWhenTheSandboxCannotEnd(t *testing.T) {
	f := &fakeStarter{closeErr: errors.New("503")}
	report, err := RunCheck(context.Background(), f, SandboxRequest{}, []CheckCommand{{Run: "true"}})
	if err != nil || len(report.Warnings) != 1 || !strings.Contains(report.Warnings[0], "could not end sandbox sbx-1 (it ends at its timeout") {
		t.Errorf("err %v, warnings %q", err, report.Warnings)
	}
}

// TestRunCheckScrubsSecrets: the sandbox's environment values and a command's URL credentials
// never reach the results or the error, however the command echoes them.
func TestRunCheckScrubsSecrets(t *testing.T) {
	const token, password = "ghp_0123456789abcdef", "hunter2-long"
	command := "git ls-remote https://x:" + password + "@git.example.com/r.git"
	f := &fakeStarter{outcomes: map[string]CommandOutcome{
		command: {ExitCode: 128, Output: []byte("fatal: https://x:" + password + "@git.example.com: token " + token + "\n")},
	}}
	report, err := RunCheck(context.Background(), f, SandboxRequest{Env: map[string]string{"GH_TOKEN": token}}, []CheckCommand{{Run: command}})
	texts := err.Error() + report.Results[0].Run + report.Results[0].Output
	if strings.Contains(texts, token) || strings.Contains(texts, password) || !strings.Contains(texts, Redacted) {
		t.Errorf("a secret leaked:\n%s", texts)
	}
}

func TestCheckCommandProblem(t *testing.T) {
	for _, tt := range []struct {
		command CheckCommand
		field   string
	}{
		{CheckCommand{Run: "true"}, ""},
		{CheckCommand{Run: " \n"}, "run"},
		{CheckCommand{Run: "true", ExpectOutput: "("}, "expect_output"},
	} {
		if field, _ := tt.command.Problem(); field != tt.field {
			t.Errorf("%+v: problem at %q, want %q", tt.command, field, tt.field)
		}
	}
}
