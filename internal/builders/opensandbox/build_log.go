package opensandbox

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// maxCommandOutputLines keeps the tail of a long pip run in the result logs.
const maxCommandOutputLines = 200

// buildLog collects the lines reported as TemplateBuildResult.Logs, each passed through
// builders.Scrub with the secrets in play (command output could echo them).
type buildLog struct {
	lines   []string
	secrets []builders.Secret
	// progress, when set, hears every line as it is added (the build's Observer), so the CLI shows
	// the build's steps while it runs.
	progress func(line string)
}

func (l *buildLog) add(line string) {
	line = builders.Scrub(line, l.secrets...)
	l.lines = append(l.lines, line)
	if l.progress != nil {
		l.progress(line)
	}
}

func (l *buildLog) addf(format string, args ...any) { l.add(fmt.Sprintf(format, args...)) }

func (l *buildLog) output(result commandResult) {
	if result.Omitted > 0 {
		l.addf("... %d earlier output lines omitted", result.Omitted)
	}
	for _, line := range result.Output {
		l.add(line)
	}
}

// warnings logs the spec fields OpenSandbox ignores (Ensure leaves unset sizing at zero, so only
// what the user set is reported).
func (l *buildLog) warnings(spec builders.TemplateSpec) {
	for _, w := range spec.Warnings(&Backend) {
		l.add("warning: " + w.Message)
	}
}
