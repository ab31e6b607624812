package opensandbox

import (
	"context"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// installCommand installs packages with pip in one call. Each specifier is single-quoted for the
// shell execd runs commands with (bash -c), so "numpy>=2" stays one argument. The env lets pip
// install into a system Python, as the code-interpreter README does with --break-system-packages
// (an env var, because older pips reject the flag).
func installCommand(ctx context.Context, packages []string) runCommandRequest {
	quoted := make([]string, len(packages))
	for i, p := range packages {
		quoted[i] = builders.ShellQuote(p)
	}
	req := runCommandRequest{
		Command: "python3 -m pip install --no-input --disable-pip-version-check " + strings.Join(quoted, " "),
		Envs:    map[string]string{"PIP_BREAK_SYSTEM_PACKAGES": "1", "PIP_ROOT_USER_ACTION": "ignore"},
	}
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = max(time.Until(deadline).Milliseconds(), 1) // execd kills it at our deadline
	}
	return req
}
