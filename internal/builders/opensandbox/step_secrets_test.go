package opensandbox

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestStepCredentialsStayOutOfTheBuild: a git_clone whose URL carries a token, and an env step's
// API key that a command prints, reach the sandbox as written; the command's log line, its output,
// the failure and the progress stream show neither, whether the clone fails or succeeds.
func TestStepCredentialsStayOutOfTheBuild(t *testing.T) {
	const token, apiKey = "ghs_OSBStepTok3n", "sk-osb-env-secret"
	url := "https://x-access-token:" + token + "@github.com/org/app"
	for _, fails := range []bool{true, false} {
		h := newHarness(t, opensandboxemu.Options{Programs: func(cmd string) (opensandboxemu.CommandResult, bool) {
			out := opensandboxemu.CommandResult{Stdout: []string{"Cloning into 'app' with API_KEY=" + apiKey}}
			if fails {
				out.Stderr, out.ExitCode = []string{"fatal: unable to access '" + url + "/': The requested URL returned error: 403"}, 128
			}
			return out, strings.HasPrefix(cmd, "git clone")
		}})
		s := spec("py")
		s.Steps = []builders.BuildStep{{Env: map[string]string{"API_KEY": apiKey}}, {GitClone: &builders.GitCloneStep{URL: url}}}
		var mu sync.Mutex
		var progress []string
		got := builders.Ensure(context.Background(), h.b, s, builders.Observer{OnProgress: func(line string) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, line)
		}})
		if fails {
			assertFailed(t, got, builders.StageTemplateBuild, "steps[1] (git_clone https://x-access-token:"+builders.Redacted+"@github.com/org/app)")
		} else if got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %s: %s", got.Status, got.Detail)
		}
		mu.Lock()
		streamed := strings.Join(progress, "\n")
		mu.Unlock()
		if !strings.Contains(streamed, "$ git clone https://x-access-token:"+builders.Redacted+"@github.com/org/app") {
			t.Errorf("the progress lacks the command's line, its token redacted:\n%s", streamed)
		}
		assertNoSecret(t, got, token, apiKey)
		if strings.Contains(streamed, token) || strings.Contains(streamed, apiKey) {
			t.Errorf("the progress shows a credential:\n%s", streamed)
		}
		sb := h.onlySandbox(t)
		if len(sb.Commands) == 0 || !strings.Contains(sb.Commands[0].Command, token) || sb.Commands[0].Envs["API_KEY"] != apiKey {
			t.Errorf("the clone must run with its token and the env step's key: %+v", sb.Commands)
		}
	}
}
