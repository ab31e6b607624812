package opensandbox

import (
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// installCommand installs packages with pip in one call, for the system (as root) or, with
// userInstall, with --user for the user the step runs as. python3 -m pip, because the
// code-interpreter image has no pip on the PATH. Each specifier is single-quoted for the shell execd
// runs commands with (bash -c), so "numpy>=2" stays one argument. The env lets pip install into a
// system Python, as the code-interpreter README does with --break-system-packages (an env var,
// because older pips reject the flag).
func installCommand(packages []string, userInstall bool) runCommandRequest {
	quoted := make([]string, len(packages))
	for i, p := range packages {
		quoted[i] = builders.ShellQuote(p)
	}
	flags := "--no-input --disable-pip-version-check "
	if userInstall {
		flags += "--user "
	}
	return runCommandRequest{
		Command: "python3 -m pip install " + flags + strings.Join(quoted, " "),
		Envs:    map[string]string{"PIP_BREAK_SYSTEM_PACKAGES": "1", "PIP_ROOT_USER_ACTION": "ignore"},
	}
}
