package opensandbox

import (
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// maxCommandOutputLines keeps the tail of a long pip run in the result logs.
const maxCommandOutputLines = 200

// buildLog is the build's log, fed by execd's command output too.
type buildLog struct{ builders.BuildLog }

func (l *buildLog) output(result commandResult) {
	if result.Omitted > 0 {
		l.Addf("... %d earlier output lines omitted", result.Omitted)
	}
	for _, line := range result.Output {
		l.outputLine(line)
	}
}

// outputLine adds a line of a command's output; a line of stderr goes under its label, so that
// the log joins its text, not the label, with the line before (execd sends each line as an event).
func (l *buildLog) outputLine(line string) {
	if text, ok := strings.CutPrefix(line, stderrLabel); ok {
		l.AddOutput(stderrLabel, text)
	} else {
		l.AddOutput("", line)
	}
}

// scrubbedOutput is a command's output as the build log shows it: each line cut, and scrubbed of
// secrets with the lines around it, so that an error quoting the output shows no half of a secret
// split across two lines.
func scrubbedOutput(output []string, secrets []builders.Secret) []string {
	l := buildLog{builders.BuildLog{Secrets: secrets}}
	for _, line := range output {
		l.outputLine(line)
	}
	return l.Lines()
}

// warnings logs the spec fields OpenSandbox ignores (Ensure leaves unset sizing at zero, so only
// what the user set is reported).
func (l *buildLog) warnings(spec builders.TemplateSpec) {
	for _, w := range spec.Warnings(&Backend) {
		l.Add("warning: " + w.Message)
	}
}
