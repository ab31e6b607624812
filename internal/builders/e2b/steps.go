package e2b

import (
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Step types of the SDKs' Template builder (js-sdk template/index.ts).
const (
	stepRun     = "RUN"
	stepEnv     = "ENV"
	stepWorkdir = "WORKDIR"
	stepUser    = "USER"
)

// runStep is the SDKs' runCmd: args are the command and, optionally, the user to run it as.
func runStep(command string, user ...string) templateStep {
	return templateStep{Type: stepRun, Args: append([]string{command}, user...)}
}

// pipInstallStep is the SDKs' pipInstall(packages) with its default g=true: one RUN step of
// "pip install -- <packages>" as root. Each specifier is single-quoted, so "numpy>=2" or a
// marker with spaces stays one argument and nothing in it reaches the shell; "--" ends pip's
// options, so no package can be read as one (the core also refuses a leading "-").
func pipInstallStep(packages []string) templateStep {
	quoted := make([]string, len(packages))
	for i, p := range packages {
		quoted[i] = builders.ShellQuote(p)
	}
	return runStep("pip install -- "+strings.Join(quoted, " "), "root")
}
