package opensandbox

import (
	"context"
	"fmt"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// CodeInterpreterImage is OpenSandbox's code-interpreter image at the version whose entrypoint
// is CodeInterpreterEntrypoint. From v1.1.0 the script lives in /opt/code-interpreter (before, in
// /opt/opensandbox, which execd now mounts over): OSB sandboxes/code-interpreter/Dockerfile
// `ENTRYPOINT ["/opt/code-interpreter/code-interpreter.sh"]`, README example with
// opensandbox/code-interpreter:v1.1.0, Go SDK code_interpreter.go at HEAD. Pin the two together.
const CodeInterpreterImage = "opensandbox/code-interpreter:v1.1.0"

// CodeInterpreterEntrypoint starts the code interpreter (Jupyter on 44771) in images built on
// CodeInterpreterImage. It is the start command when start_cmd is unset: the design's default,
// which other images cannot run (see entrypoint).
var CodeInterpreterEntrypoint = []string{"/opt/code-interpreter/code-interpreter.sh"}

// NeutralEntrypoint keeps a sandbox alive and starts nothing: the SDKs' default entrypoint (Go SDK
// DefaultEntrypoint, JS SDK DEFAULT_ENTRYPOINT) and what a restore without one runs (OSB
// services/snapshot_restore.py DEFAULT_SNAPSHOT_RESTORE_ENTRYPOINT). start_cmd = "" selects it.
var NeutralEntrypoint = []string{"tail", "-f", "/dev/null"}

// DefaultResourceLimits size the builder sandbox; the API requires resourceLimits. They are the
// Go SDK's DefaultResourceLimits (constants.go). Snapshots carry no sizing, so cpu_count and
// memory_mb do not apply here (see Backend.Ignored).
var DefaultResourceLimits = map[string]string{"cpu": "1", "memory": "2Gi"}

// Builder sandboxes expire on their own even if deleting them fails: the build's deadline plus a
// margin, or builderSandboxTTL without one, never above the server's cap. The API minimum is 60
// seconds.
const (
	builderSandboxTTL    = 2 * time.Hour
	builderSandboxMargin = 10 * time.Minute
	minSandboxTimeout    = 60
)

// SandboxEntrypoint is what whoever starts a sandbox from the template passes as
// CreateSandboxRequest.entrypoint, for a start_cmd: a snapshot keeps no process, and a restore
// without an entrypoint runs NeutralEntrypoint. The build starts the same command after the steps
// (start_command.go).
func SandboxEntrypoint(startCmd *string) []string {
	return entrypoint(builders.TemplateSpec{StartCmd: startCmd}.StartCommand(""))
}

// entrypoint is a sandbox's main process for a start command. The server's bootstrap ends the
// sandbox when it ends (OSB components/execd/bootstrap.sh), so it must keep running: unset
// (defaulted) is the code interpreter's; "" is NeutralEntrypoint; anything else runs through a
// shell, so quoting, pipes and env expansion work as typed.
func entrypoint(startCmd string, defaulted bool) []string {
	switch {
	case defaulted:
		return append([]string(nil), CodeInterpreterEntrypoint...)
	case startCmd == "":
		return append([]string(nil), NeutralEntrypoint...)
	}
	return []string{"sh", "-c", startCmd}
}

// endedHint says why a start command must not end and what to set instead.
func endedHint(startCmd string, defaulted bool) string {
	if defaulted {
		return fmt.Sprintf("start_cmd is not set, so the start command is the default entrypoint %s, which only "+
			"images built on %s have, and a sandbox ends when its entrypoint does. Set start_cmd to the command "+
			"your image starts with, or start_cmd = \"\" to start none", CodeInterpreterEntrypoint[0], CodeInterpreterImage)
	}
	return fmt.Sprintf("a sandbox ends when its entrypoint does: start_cmd (%q) must keep running, or set start_cmd = \"\" to start none", startCmd)
}

// sandboxTimeoutSeconds is the builder sandbox's timeout: long enough to outlive the build, within
// the server's cap. A build allowed to run longer than the cap is refused before it starts.
func sandboxTimeoutSeconds(ctx context.Context, maxSeconds int) (int, error) {
	limit := time.Duration(maxSeconds) * time.Second
	ttl := builderSandboxTTL
	if deadline, ok := ctx.Deadline(); ok {
		budget := time.Until(deadline)
		if err := fitsCap(budget, maxSeconds); err != nil {
			return 0, err
		}
		ttl = budget + builderSandboxMargin
	}
	return max(int(min(ttl, limit)/time.Second), minSandboxTimeout), nil
}

// CheckBuildTimeout tells whether a build given budget (the resource's create or update timeout)
// fits the server's sandbox timeout cap, so the provider can say so at plan time; Build checks the
// same before it creates anything.
func (b *Builder) CheckBuildTimeout(budget time.Duration) error {
	return fitsCap(budget, b.maxSandboxTimeout)
}

func fitsCap(budget time.Duration, maxSeconds int) error {
	limit := time.Duration(maxSeconds) * time.Second
	if budget <= limit {
		return nil
	}
	return fmt.Errorf("the build may take up to %s (its create or update timeout), but OpenSandbox sandboxes "+
		"may live at most %s (max_sandbox_timeout_seconds = %d): lower the resource's timeouts to at most %s, or raise "+
		"max_sandbox_timeout_seconds in the provider's opensandbox block if the server's "+
		"server.max_sandbox_timeout_seconds allows it", budget.Round(time.Second), limit, maxSeconds, limit)
}
