package bedrock

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// startSession starts a session of a READY custom interpreter and closes it when the test ends.
func startSession(t *testing.T, b *Builder, e *awsemu.Emulator, req builders.SandboxRequest) builders.Sandbox {
	t.Helper()
	e.SeedCodeInterpreter(customID, "READY")
	req.Build = customID
	sbx, err := b.StartSandbox(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sbx.Close(t.Context()) })
	return sbx
}

func run(t *testing.T, sbx builders.Sandbox, command string) builders.CommandOutcome {
	t.Helper()
	out, err := sbx.Run(t.Context(), command)
	if err != nil {
		t.Fatalf("Run(%q): %v", command, err)
	}
	return out
}

// TestRunReportsExitCodeAndOutput: executeCommand's exit code and its stdout and stderr come back
// from the event stream, a failing command is an outcome and not an error, and what one command
// writes is there for the next, as in one shell session.
func TestRunReportsExitCodeAndOutput(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx := startSession(t, b, e, builders.SandboxRequest{})
	for _, tt := range []struct {
		command  string
		exitCode int
		output   string
	}{
		{"echo hello; echo oops >&2; exit 3", 3, "hello\noops\n"},
		{`python3 -c "import pandas, numpy"`, 0, ""},
		{`python3 -c "import polarbear"`, 1, "ModuleNotFoundError: No module named 'polarbear'"},
		{"echo kept > /tmp/state", 0, ""},
		{"cat /tmp/state", 0, "kept\n"},
		{"no-such-program", 127, "command not found"},
	} {
		out := run(t, sbx, tt.command)
		if out.ExitCode != tt.exitCode || !strings.Contains(string(out.Output), tt.output) {
			t.Errorf("%q: exit %d, output %q; want exit %d and %q", tt.command, out.ExitCode, out.Output, tt.exitCode, tt.output)
		}
	}
	var invoked int
	for _, r := range e.Requests() {
		if r.Operation == "InvokeCodeInterpreter" {
			invoked++
			if !strings.Contains(r.Body, `"name":"executeCommand"`) || r.Service != "bedrock-agentcore" {
				t.Errorf("recorded %+v", r)
			}
		}
	}
	if invoked != 6 {
		t.Errorf("%d InvokeCodeInterpreter requests, want 6", invoked)
	}
}

// TestRunKeepsTheTailOfLargeOutput: a command printing 10 MiB leaves the last
// MaxCheckOutputBytes of it, ending where the command's output ended.
func TestRunKeepsTheTailOfLargeOutput(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx := startSession(t, b, e, builders.SandboxRequest{})
	// seq 100000 prints 588,895 bytes; 18 of them are 10.1 MiB.
	out := run(t, sbx, "for i in $(seq 18); do seq 100000; done")
	if out.ExitCode != 0 || len(out.Output) != builders.MaxCheckOutputBytes || !strings.HasSuffix(string(out.Output), "\n99999\n100000\n") {
		t.Fatalf("exit %d, %d bytes ending %q; want exit 0 and the last %d bytes", out.ExitCode, len(out.Output),
			out.Output[max(0, len(out.Output)-20):], builders.MaxCheckOutputBytes)
	}
}

// TestCloseStopsTheSession: the session is live, named by its labels and ends at its Lifetime
// until Close stops it; then none is left, a second Close is no error and the session runs nothing.
func TestCloseStopsTheSession(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx := startSession(t, b, e, builders.SandboxRequest{Lifetime: 90*time.Second + time.Millisecond,
		Labels: map[string]string{"sandbox-check": "smoke", "managed-by": "terraform"}})
	live := e.CodeInterpreterSessions()
	if len(live) != 1 || live[0].SessionID != sbx.ID() || live[0].CodeInterpreterID != customID ||
		live[0].Name != "managed-by=terraform,sandbox-check=smoke" || live[0].ExpiresAt.Sub(live[0].CreatedAt) != 91*time.Second {
		t.Fatalf("live sessions %+v; want %s named by its labels, ending 91 s after it started", live, sbx.ID())
	}
	if err := sbx.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if live := e.CodeInterpreterSessions(); len(live) != 0 {
		t.Fatalf("after Close: %+v", live)
	}
	if err := sbx.Close(t.Context()); err != nil {
		t.Errorf("closing a session already stopped: %v", err)
	}
	if _, err := sbx.Run(t.Context(), "true"); err == nil || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Errorf("Run on a stopped session: %v", err)
	}
}

// TestSessionEndsAtItsLifetime: a session nobody stops ends at its Lifetime (the CLI was killed);
// after that it runs nothing and closing it is no error.
func TestSessionEndsAtItsLifetime(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	b, e := newEmulatedBuilderWith(t, awsemu.Options{Now: clock})
	sbx := startSession(t, b, e, builders.SandboxRequest{Lifetime: 5 * time.Minute})
	mu.Lock()
	now = now.Add(5 * time.Minute)
	mu.Unlock()
	if live := e.CodeInterpreterSessions(); len(live) != 0 {
		t.Fatalf("past its lifetime: %+v", live)
	}
	if _, err := sbx.Run(t.Context(), "true"); err == nil {
		t.Error("a session past its lifetime ran a command")
	}
	if err := sbx.Close(t.Context()); err != nil {
		t.Errorf("closing a session past its lifetime: %v", err)
	}
}

// TestWorkdirAndEnvReachTheCommand: executeCommand takes neither, so they reach it as a shell
// prefix, quoted so that a value is never code.
func TestWorkdirAndEnvReachTheCommand(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx := startSession(t, b, e, builders.SandboxRequest{Workdir: "/tmp", Env: map[string]string{"GREETING": "it's $HOME; exit 9"}})
	out := run(t, sbx, `pwd; echo "$GREETING"`)
	if out.ExitCode != 0 || string(out.Output) != "/tmp\nit's $HOME; exit 9\n" {
		t.Errorf("exit %d, output %q", out.ExitCode, out.Output)
	}
}

// TestRequestsAnInterpreterCannotHonourAreRefused: no user to run as, no start command, no
// variable a shell cannot export, no name longer than AgentCore's: refused before any request.
func TestRequestsAnInterpreterCannotHonourAreRefused(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	for _, req := range []builders.SandboxRequest{
		{User: "agent"},
		{Entrypoint: []string{"/start.sh"}},
		{Env: map[string]string{"NOT-A-NAME": "x"}},
		{Labels: map[string]string{"check": strings.Repeat("x", 100)}},
	} {
		req.Build = SystemCodeInterpreterID
		_, err := b.StartSandbox(t.Context(), req)
		buildertest.AssertStage(t, err, builders.StageValidation, "bedrock: ")
	}
	if reqs := e.Requests(); len(reqs) != 0 {
		t.Errorf("sent %+v", reqs)
	}
}

// TestStartOnTheBuiltInInterpreter: aws.codeinterpreter.v1 needs no seeding, as at AWS.
func TestStartOnTheBuiltInInterpreter(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx, err := b.StartSandbox(t.Context(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sbx.Close(t.Context()) }()
	if out := run(t, sbx, "python3 --version"); out.ExitCode != 0 || !strings.HasPrefix(string(out.Output), "Python 3.") {
		t.Errorf("exit %d, output %q", out.ExitCode, out.Output)
	}
	if live := e.CodeInterpreterSessions(); len(live) != 1 || live[0].CodeInterpreterID != SystemCodeInterpreterID {
		t.Errorf("live sessions %+v", live)
	}
}

// TestStartErrors: a missing interpreter is ErrNotFound at TEMPLATE_LOOKUP, naming it and the
// region; one not READY and refused credentials say why; none leaves a session.
func TestStartErrors(t *testing.T) {
	t.Run("unknown interpreter", func(t *testing.T) {
		b, e := newEmulatedBuilder(t)
		_, err := b.StartSandbox(t.Context(), builders.SandboxRequest{Build: "missing-a1b2c3d4e5"})
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("want ErrNotFound, got %v", err)
		}
		buildertest.AssertStage(t, err, builders.StageTemplateLookup, `"missing-a1b2c3d4e5"`, "us-east-1")
		if live := e.CodeInterpreterSessions(); len(live) != 0 {
			t.Errorf("live sessions %+v", live)
		}
	})
	t.Run("interpreter not READY", func(t *testing.T) {
		b, e := newEmulatedBuilder(t)
		e.SeedCodeInterpreter(customID, "CREATING")
		_, err := b.StartSandbox(t.Context(), builders.SandboxRequest{Build: customID})
		if !strings.Contains(fmt.Sprint(err), "StartCodeInterpreterSession") || !strings.Contains(fmt.Sprint(err), "ValidationException") ||
			!strings.Contains(fmt.Sprint(err), "CREATING") || builders.StageOf(err, "") != "" {
			t.Errorf("want the ValidationException without a stage (the check decides), got %v", err)
		}
	})
	t.Run("access denied", func(t *testing.T) {
		b, e := newEmulatedBuilder(t)
		e.DenyAccess("StartCodeInterpreterSession")
		_, err := b.StartSandbox(t.Context(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
		buildertest.AssertStage(t, err, builders.StageAPIAuth, "AccessDeniedException", "bedrock-agentcore:StartCodeInterpreterSession")
	})
}

// TestStreamErrorsSurface: an exception event in InvokeCodeInterpreter's stream (a failure while
// the tool ran) is Run's error, naming AWS's code; the session goes on.
func TestStreamErrorsSurface(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	sbx := startSession(t, b, e, builders.SandboxRequest{})
	for status, code := range map[int]string{500: "InternalServerException", 429: "ThrottlingException"} {
		if err := e.InjectFault(awsemu.Fault{Count: 1, Status: status, Operation: "InvokeCodeInterpreter", InStream: true}); err != nil {
			t.Fatal(err)
		}
		_, err := sbx.Run(t.Context(), "echo never")
		if err == nil || !strings.Contains(err.Error(), code) || !strings.Contains(err.Error(), "result stream") {
			t.Errorf("an in-stream %s: Run = %v", code, err)
		}
	}
	if out := run(t, sbx, "echo after"); string(out.Output) != "after\n" {
		t.Errorf("after the stream errors: %q", out.Output)
	}
}

// BenchmarkCheckTrue is a check's overhead against the emulator: start a session, run `true`
// and read its result, stop the session.
func BenchmarkCheckTrue(b *testing.B) {
	builder, e := newEmulatedBuilder(b)
	e.SeedCodeInterpreter(customID, "READY")
	for b.Loop() {
		sbx, err := builder.StartSandbox(b.Context(), builders.SandboxRequest{Build: customID, Lifetime: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if out, err := sbx.Run(b.Context(), "true"); err != nil || out.ExitCode != 0 {
			b.Fatal(fmt.Sprint(out, err))
		}
		if err := sbx.Close(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResultsThatComeLaterKeepTheirStream: a command's result that comes after its answer started
// (as every command that takes time) is read whole, run after run. The SDK closed the request body
// as soon as the headers came, which made the transport close the connection under the stream
// about once in 20 runs (bufferedBodies).
func TestResultsThatComeLaterKeepTheirStream(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	e.SetCommandDuration(10 * time.Millisecond)
	sbx := startSession(t, b, e, builders.SandboxRequest{})
	for i := range 100 {
		if out := run(t, sbx, fmt.Sprintf("echo %d", i)); string(out.Output) != fmt.Sprintf("%d\n", i) {
			t.Fatalf("run %d: %q", i, out.Output)
		}
	}
}

// TestSessionTimeout: Lifetime in whole seconds, rounded up, cut to AgentCore's 8 hours; none
// leaves AgentCore's default.
func TestSessionTimeout(t *testing.T) {
	for lifetime, want := range map[time.Duration]int32{time.Nanosecond: 1, 90 * time.Second: 90, 9 * time.Hour: 28800} {
		if got := sessionTimeout(lifetime); got == nil || *got != want {
			t.Errorf("sessionTimeout(%v) = %v, want %d", lifetime, got, want)
		}
	}
	if got := sessionTimeout(0); got != nil {
		t.Errorf("sessionTimeout(0) = %d, want none", *got)
	}
}
