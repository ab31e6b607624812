package opensandbox

import (
	"context"
	"time"
)

// CodeInterpreterImage is OpenSandbox's code-interpreter image at the version whose entrypoint
// is CodeInterpreterEntrypoint. From v1.1.0 the script lives in /opt/code-interpreter (before, in
// /opt/opensandbox, which execd now mounts over): OSB sandboxes/code-interpreter/Dockerfile
// `ENTRYPOINT ["/opt/code-interpreter/code-interpreter.sh"]`, README example with
// opensandbox/code-interpreter:v1.1.0, Go SDK code_interpreter.go at HEAD. Pin the two together.
const CodeInterpreterImage = "opensandbox/code-interpreter:v1.1.0"

// CodeInterpreterEntrypoint starts the code interpreter (Jupyter on 44771) in images built on
// CodeInterpreterImage. It is the builder sandbox's entrypoint when start_cmd is empty, so an
// image without it must set start_cmd.
var CodeInterpreterEntrypoint = []string{"/opt/code-interpreter/code-interpreter.sh"}

// DefaultResourceLimits size the builder sandbox; the API requires resourceLimits. They are the
// Go SDK's DefaultResourceLimits (constants.go). Snapshots carry no sizing, so cpu_count and
// memory_mb do not apply here (see builders.IgnoredFieldReason).
var DefaultResourceLimits = map[string]string{"cpu": "1", "memory": "2Gi"}

// Builder sandboxes expire on their own even if deleting them fails: the build's deadline plus a
// margin, or builderSandboxTTL without one. The API minimum is 60 seconds.
const (
	builderSandboxTTL    = 2 * time.Hour
	builderSandboxMargin = 10 * time.Minute
	minSandboxTimeout    = 60
)

// entrypoint is the builder sandbox's main process: start_cmd run by a shell, so quoting, pipes
// and env expansion work as typed (it must keep running, or the sandbox stops), else the code
// interpreter's.
func entrypoint(startCmd string, _ bool) []string {
	if startCmd == "" {
		return append([]string(nil), CodeInterpreterEntrypoint...)
	}
	return []string{"sh", "-c", startCmd}
}

func sandboxTimeoutSeconds(ctx context.Context) int {
	ttl := builderSandboxTTL
	if deadline, ok := ctx.Deadline(); ok {
		ttl = time.Until(deadline) + builderSandboxMargin
	}
	return max(int(ttl/time.Second), minSandboxTimeout)
}

// builderMetadata labels the builder sandbox for anyone cleaning up by hand. Values follow k8s
// label rules (at most 63 characters), so a longer template id is left out.
func builderMetadata(templateID string) map[string]string {
	md := map[string]string{"sandboxtf-role": "template-builder"}
	if len(templateID) <= 63 {
		md["sandboxtf-template"] = templateID
	}
	return md
}
