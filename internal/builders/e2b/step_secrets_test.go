package e2b

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestFailedStepHidesItsCredential: a git_clone whose URL carries a token fails at its step, and E2B's
// reason quotes the command, as its orchestrator does. The failure names the step and the command,
// but neither the detail, the logs nor the progress shows the token.
func TestFailedStepHidesItsCredential(t *testing.T) {
	const token = "ghs_E2BStepTok3n"
	url := "https://x-access-token:" + token + "@github.com/org/app"
	emu := newEmulator(t)
	emu.FailBuildAt("py", "failed to run command 'git clone "+url+"': exit status 128", "1")
	spec := builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: ptr(""),
		Steps: []builders.BuildStep{{GitClone: &builders.GitCloneStep{URL: url}}}}
	var mu sync.Mutex
	var progress []string
	got := builders.Ensure(context.Background(), newTestBuilder(t, emu), spec, builders.Observer{OnProgress: func(line string) {
		mu.Lock()
		defer mu.Unlock()
		progress = append(progress, line)
	}})
	if got.Status != builders.StatusFailed || !strings.Contains(got.Detail, "step 1, steps[0] (git_clone https://x-access-token:"+builders.Redacted+"@github.com/org/app)") {
		t.Fatalf("result = %s %q, want FAILED naming the step, its token redacted", got.Status, got.Detail)
	}
	if got := onlyStart(t, emu).Body.Steps[0].Args[0]; !strings.Contains(got, token) {
		t.Fatalf("the token must still reach E2B, which clones with it: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	assertNoSecrets(t, got.Detail+"\n"+strings.Join(got.Logs, "\n")+"\n"+strings.Join(progress, "\n"), token)
}
