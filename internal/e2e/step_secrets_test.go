package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// The credential of a git_clone URL is the provider's to hide: it never learns that var.token is
// sensitive, but every URL's userinfo is a secret for its build (builders.TemplateSpec.StepSecrets).
const (
	cloneURL = `https://x-access-token:${var.token}@github.com/org/app`
	// redactedClone is how the step shows once its token is scrubbed.
	redactedClone = "https://x-access-token:[REDACTED]@github.com/org/app"
)

// tokenClone is the clone URL as the server receives it, the token in it.
var tokenClone = strings.Replace(cloneURL, "${var.token}", sensitiveToken, 1)

// failingClone makes an OpenSandbox git clone fail as git does when it prints its URL.
func failingClone(cmd string) (opensandboxemu.CommandResult, bool) {
	return opensandboxemu.CommandResult{ExitCode: 128,
		Stderr: []string{"fatal: unable to access '" + tokenClone + "/': The requested URL returned error: 403"}}, strings.HasPrefix(cmd, "git clone")
}

// echoingClone makes an OpenSandbox git clone succeed and print its URL.
func echoingClone(cmd string) (opensandboxemu.CommandResult, bool) {
	return opensandboxemu.CommandResult{Stderr: []string{"Cloning into 'app' from " + tokenClone + "..."}}, strings.HasPrefix(cmd, "git clone")
}

// templateWithSteps is template py on backend (E2B or OpenSandbox) with steps.
func templateWithSteps(provider, backend, steps string) string {
	image := `image       = "opensandbox/code-interpreter:v1.1.0"`
	if backend == "e2b" {
		image = `image       = "python:3.12"
  start_cmd   = ""`
	}
	return provider + tokenVariable + `
resource "sandbox_template" "py" {
  backend     = "` + backend + `"
  template_id = "py"
  ` + image + `
  steps       = [` + steps + `]
}
`
}

// TestFailedCloneHidesItsToken: a git_clone whose URL carries a token from a sensitive variable
// fails, and the server's answer quotes the URL (E2B's reason, git's own error on OpenSandbox). The
// apply's error names the step with the token redacted, and neither it nor the state shows the token.
func TestFailedCloneHidesItsToken(t *testing.T) {
	for _, backend := range []string{"e2b", "opensandbox"} {
		t.Run(backend, func(t *testing.T) {
			c := newCLI(t)
			c.withToken()
			var provider string
			failNextBuild := func() {}
			if backend == "e2b" {
				emu, p := newE2B(t)
				provider = p
				failNextBuild = func() {
					emu.FailBuildAt("py", "failed to run command 'git clone "+tokenClone+"': exit status 128", "1")
				}
			} else {
				provider = newOpenSandbox(t, opensandboxemu.Options{Programs: failingClone})
			}
			// A template that builds, then an update to one whose clone fails: the state keeps it with the failure.
			c.write("main.tf", templateWithSteps(provider, backend, `{ env = { MPLBACKEND = "Agg" } }`))
			c.mustRun("apply", "-no-color", "-input=false", "-auto-approve")
			c.write("main.tf", templateWithSteps(provider, backend, `{ git_clone = { url = "`+cloneURL+`" } }`))
			failNextBuild()
			out, err := c.run("apply", "-no-color", "-input=false", "-auto-approve")
			if err == nil || !strings.Contains(out, "Template build failed at stage TEMPLATE_BUILD") || !strings.Contains(out, "git_clone "+redactedClone) {
				t.Errorf("the apply must fail naming the step, its token redacted: %v\n%s", err, out)
			}
			c.noToken("the failed apply", out)

			var state struct {
				Values struct {
					RootModule struct {
						Resources []struct {
							Values struct {
								Status, Detail string
							} `json:"values"`
						} `json:"resources"`
					} `json:"root_module"`
				} `json:"values"`
			}
			stateJSON := c.jsonOf(&state, "show", "-json")
			if r := state.Values.RootModule.Resources; len(r) != 1 || r[0].Values.Status != "FAILED" || !strings.Contains(r[0].Values.Detail, redactedClone) {
				t.Errorf("state must record the failure with the step, its token redacted:\n%s", stateJSON)
			}
			c.noToken("the state", stateJSON)
		})
	}
}

// TestCloneTokenStaysOutOfTheDebugLog: a successful OpenSandbox build logs each command and its
// output, at INFO, and so at TF_LOG=DEBUG: the clone's line and git's echo of its URL show the
// token redacted.
func TestCloneTokenStaysOutOfTheDebugLog(t *testing.T) {
	c := newCLI(t)
	c.withToken()
	provider := newOpenSandbox(t, opensandboxemu.Options{Programs: echoingClone})
	c.write("main.tf", templateWithSteps(provider, "opensandbox", `{ git_clone = { url = "`+cloneURL+`" } }`))
	logPath := filepath.Join(c.dir, "cli.log")
	c.env = append(c.env, "TF_LOG=DEBUG", "TF_LOG_PATH="+logPath)
	c.mustRun("apply", "-no-color", "-input=false", "-auto-approve")
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	c.noToken("the DEBUG log", string(log))
	if !strings.Contains(string(log), "$ git clone "+redactedClone) || !strings.Contains(string(log), "from "+redactedClone) {
		t.Errorf("the DEBUG log lacks the clone's command and output, its token redacted (%d bytes)", len(log))
	}
}

// TestRefusedCloneURLHidesItsToken: a clone URL refused at plan is quoted in the diagnostic, its
// token redacted.
func TestRefusedCloneURLHidesItsToken(t *testing.T) {
	c := newCLI(t)
	c.withToken()
	_, provider := newE2B(t)
	c.write("main.tf", templateWithSteps(provider, "e2b", `{ git_clone = { url = "`+cloneURL+` main" } }`))
	out, err := c.run("plan", "-no-color", "-input=false")
	if err == nil || !strings.Contains(strings.Join(strings.Fields(out), " "), redactedClone+` main" must be one word`) { // the CLI wraps it
		t.Errorf("the plan must refuse the URL, quoting it with its token redacted: %v\n%s", err, out)
	}
	c.noToken("the refused plan", out)
}
