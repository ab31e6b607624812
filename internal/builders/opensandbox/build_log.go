package opensandbox

import "github.com/sandboxtf/terraform-provider-sandbox/internal/builders"

// maxCommandOutputLines keeps the tail of a long pip run in the result logs.
const maxCommandOutputLines = 200

// buildLog is the build's log, fed by execd's command output too.
type buildLog struct{ builders.BuildLog }

func (l *buildLog) output(result commandResult) {
	if result.Omitted > 0 {
		l.Addf("... %d earlier output lines omitted", result.Omitted)
	}
	for _, line := range result.Output {
		l.Add(line)
	}
}

// warnings logs the spec fields OpenSandbox ignores (Ensure leaves unset sizing at zero, so only
// what the user set is reported).
func (l *buildLog) warnings(spec builders.TemplateSpec) {
	for _, w := range spec.Warnings(&Backend) {
		l.Add("warning: " + w.Message)
	}
}
