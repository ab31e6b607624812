package opensandbox

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// failingStep builds a template with one run step whose command prints out and fails, and returns
// the result and every line the build's listener heard.
func failingStep(t *testing.T, out opensandboxemu.CommandResult) (builders.TemplateBuildResult, []string) {
	t.Helper()
	h := newHarness(t, opensandboxemu.Options{Programs: func(cmd string) (opensandboxemu.CommandResult, bool) {
		return out, strings.Contains(cmd, "print-the-key")
	}})
	s := spec("leaky")
	// A program on the image's PATH (a shell builtin such as echo never reaches Programs).
	s.Steps = []builders.BuildStep{{Run: &builders.RunStep{Command: "python3 print-the-key.py"}}}
	var mu sync.Mutex
	var heard []string
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{OnProgress: func(line string) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, line)
	}})
	if got.Status != builders.StatusFailed || !strings.Contains(got.Detail, "print-the-key") {
		t.Fatalf("Ensure = %s %q, want the step's failure", got.Status, got.Detail)
	}
	return got, heard
}

// execd sends each line a command prints as an event: a secret printed in two pieces comes in
// two events, on stdout or stderr. Neither piece reaches the logs, the listener or the error.
func TestCommandOutputSplitAcrossEventsIsRedacted(t *testing.T) {
	got, heard := failingStep(t, opensandboxemu.CommandResult{ExitCode: 1,
		Stdout: []string{"key=" + testAPIKey[:9], testAPIKey[9:] + " (stdout)"},
		Stderr: []string{"error: bad key " + testAPIKey[:12], testAPIKey[12:]}})
	buildertest.NoPartOfSecret(t, "the detail", got.Detail, testAPIKey)
	buildertest.NoPartOfSecret(t, "the logs", strings.Join(got.Logs, "\n"), testAPIKey)
	buildertest.NoPartOfSecret(t, "what the listener heard", strings.Join(heard, "\n"), testAPIKey)
	for _, want := range []string{"key=" + builders.Redacted, builders.Redacted + " (stdout)", "stderr: error: bad key " + builders.Redacted} {
		if !strings.Contains(got.Detail, want) || !strings.Contains(strings.Join(got.Logs, "\n"), want) {
			t.Errorf("the detail and the logs should show %q:\n%s\n%s", want, got.Detail, strings.Join(got.Logs, "\n"))
		}
	}
}

// A line longer than the log shows is cut after the secrets are looked for past the cut: a key
// straddling the cut shows none of its characters.
func TestLongOutputLineIsCutAfterScrubbing(t *testing.T) {
	line := strings.Repeat("#", builders.MaxLogLineBytes-5) + testAPIKey + strings.Repeat("#", 1<<20)
	got, heard := failingStep(t, opensandboxemu.CommandResult{ExitCode: 1, Stdout: []string{line}})
	buildertest.NoPartOfSecret(t, "the detail", got.Detail, testAPIKey)
	buildertest.NoPartOfSecret(t, "the logs", strings.Join(got.Logs, "\n"), testAPIKey)
	buildertest.NoPartOfSecret(t, "what the listener heard", strings.Join(heard, "\n"), testAPIKey)
	for _, l := range got.Logs {
		if len(l) > builders.MaxLogLineBytes+len(builders.Redacted)+len("…") {
			t.Errorf("a log line of %d bytes, want it cut at %d", len(l), builders.MaxLogLineBytes)
		}
	}
}

// Go's encoder writes a password's & < > as \u0026 \u003c \u003e in the create body: a server
// quoting the body in base64 shows none of it.
func TestBase64OfTheCreateBodyHidesThePassword(t *testing.T) {
	const password = `echo-p&ss<w>rd"1`
	b, err := New(Config{BaseURL: echoServer(t), APIKey: builders.NewSecret(testAPIKey), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	req := createSandboxRequest{Image: imageSpec{URI: opensandboxCI, Auth: &imageAuth{Username: "robot", Password: builders.NewSecret(password)}}}
	_, err = b.api.createSandbox(t.Context(), req)
	if err == nil || !strings.Contains(err.Error(), "HTTP 502") {
		t.Fatalf("want the echoed 502, got %v", err)
	}
	body, _ := json.Marshal(req) // as apihttp sends it
	escaped, _ := json.Marshal(password)
	buildertest.AssertNoBase64Of(t, "the error", err.Error(), string(body), strings.Trim(string(escaped), `"`))
	buildertest.AssertNoSecretForms(t, "the error", err.Error(), password, testAPIKey)
}
