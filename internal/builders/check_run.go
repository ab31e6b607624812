package builders

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// A check (sandbox_template_check) starts a sandbox from one build as the template's consumers
// would, runs commands in it in order, stops at the first that fails, and always ends the sandbox.

// CheckCommand is one command of a check.
type CheckCommand struct {
	Run string
	// ExpectExitCode is the exit code that passes (0 unless set).
	ExpectExitCode int
	// ExpectOutput is a regular expression (Go syntax) the output must match; "" matches anything.
	ExpectOutput string
}

// Problem says what is wrong with the command, "" when nothing: what plan time can tell.
func (c CheckCommand) Problem() (field, problem string) {
	if strings.TrimSpace(c.Run) == "" {
		return "run", "is empty: give the command to run in the sandbox"
	}
	if _, err := regexp.Compile(c.ExpectOutput); err != nil {
		return "expect_output", "is not a regular expression: " + err.Error()
	}
	return "", ""
}

// CheckResult is what one command of a check came to.
type CheckResult struct {
	Run      string
	ExitCode int
	Passed   bool
	// Output is the scrubbed tail of what it printed (the last CheckTailLines lines).
	Output string
}

// CheckReport is what a check came to: the results of the commands it ran (those after a failing
// one never run), and what the user must hear even when it passed.
type CheckReport struct {
	SandboxID string
	Results   []CheckResult
	Warnings  []string
}

// CheckTailLines is how much of a command's output a check records and a failure repeats.
const CheckTailLines = 20

// checkCloseTimeout bounds ending the sandbox, on a context of its own: the check's may be
// cancelled (Ctrl-C) or past its deadline.
const checkCloseTimeout = 30 * time.Second

// RunCheck starts a sandbox from req with starter, runs commands in it in order and stops at the
// first that fails; it ends the sandbox on every path (a pass, a failure, a deadline, a cancel, a
// panic). A failing command is an error at StageCheck naming the command, its exit code and the
// scrubbed tail of its output; the report still holds the results so far. Every text it returns is
// scrubbed of the secrets CheckSecrets finds.
func RunCheck(ctx context.Context, starter SandboxStarter, req SandboxRequest, commands []CheckCommand) (report CheckReport, err error) {
	secrets := CheckSecrets(req, commands)
	defer func() { err = ScrubError(err, secrets...) }()
	sandbox, err := starter.StartSandbox(ctx, req)
	if err != nil {
		return report, AtStageIfBare(StageCheck, fmt.Errorf("starting a sandbox from build %s: %w", req.Build, err))
	}
	report.SandboxID = sandbox.ID()
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), checkCloseTimeout)
		defer cancel()
		if closeErr := sandbox.Close(closeCtx); closeErr != nil {
			report.Warnings = append(report.Warnings, Scrub(fmt.Sprintf("could not end sandbox %s (it ends at its timeout, %s): %v",
				sandbox.ID(), req.Lifetime, closeErr), secrets...))
		}
	}()
	for _, command := range commands {
		outcome, err := sandbox.Run(ctx, command.Run)
		if err != nil {
			return report, AtStageIfBare(StageCheck, fmt.Errorf("running `%s` in sandbox %s: %w", command.Run, sandbox.ID(), err))
		}
		result, failure := judge(command, outcome, secrets)
		report.Results = append(report.Results, result)
		if failure != "" {
			return report, AtStage(StageCheck, errors.New(failure))
		}
	}
	return report, nil
}

// judge tells whether a command's outcome passes and, when it does not, why, in words that name
// the command, its exit code and the tail of its output.
func judge(command CheckCommand, outcome CommandOutcome, secrets []Secret) (CheckResult, string) {
	// Scrubbed whole, then cut: a secret straddling the cut is still found.
	output := strings.ToValidUTF8(Scrub(string(outcome.Output), secrets...), "\uFFFD")
	result := CheckResult{Run: Scrub(command.Run, secrets...), ExitCode: outcome.ExitCode, Output: lastLines(output, CheckTailLines)}
	var failure string
	switch {
	case outcome.ExitCode != command.ExpectExitCode:
		failure = fmt.Sprintf("`%s` exited with %d, want %d", result.Run, outcome.ExitCode, command.ExpectExitCode)
	case !regexp.MustCompile(command.ExpectOutput).MatchString(output):
		failure = fmt.Sprintf("`%s` exited with %d, but its output does not match %q", result.Run, outcome.ExitCode, command.ExpectOutput)
	default:
		result.Passed = true
		return result, ""
	}
	if result.Output == "" {
		return result, failure + "; it printed nothing"
	}
	return result, failure + "; its output ends:\n" + indent(result.Output)
}

// CheckSecrets are the values a check's output and errors are scrubbed of: the sandbox's
// environment values that may be credentials and the URL credentials in its commands, by the rule
// of StepSecrets.
func CheckSecrets(req SandboxRequest, commands []CheckCommand) []Secret {
	var secrets []Secret
	for _, value := range req.Env {
		if utf8.RuneCountInString(value) >= MinEnvSecretLength {
			secrets = append(secrets, NewSecret(value))
		}
		secrets = append(secrets, urlCredentials(value)...)
	}
	for _, command := range commands {
		secrets = append(secrets, urlCredentials(command.Run)...)
	}
	return secrets
}

// lastLines is the last n lines of text, without its final newline.
func lastLines(text string, n int) string {
	text = strings.TrimRight(text, "\n")
	lines := strings.Split(text, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func indent(text string) string { return "  " + strings.ReplaceAll(text, "\n", "\n  ") }

// CheckRole is the role label of a check's sandbox (SandboxRequest.Labels).
const CheckRole = "template-check"

// CheckLabels mark a sandbox as a check of templateID, in the label keys the backends' own
// sandboxes use, so a later run can find one a killed run left behind. Label values are at most
// 63 characters (Kubernetes' rule, which OpenSandbox's metadata follows): a longer template id is
// left out.
func CheckLabels(templateID string) map[string]string {
	labels := map[string]string{"sandboxtf-role": CheckRole}
	if len(templateID) <= 63 {
		labels["sandboxtf-template"] = templateID
	}
	return labels
}
