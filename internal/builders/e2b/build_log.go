package e2b

import (
	"fmt"
	"regexp"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// maxLogLines keeps the tail of a long build (pip output) in the result logs.
const maxLogLines = 500

// ansiEscape matches terminal colour codes, stripped as the SDKs strip them.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// buildLog collects the lines reported as TemplateBuildResult.Logs. Every line is scrubbed of
// the build's secret values, in case a registry echoes a credential.
type buildLog struct {
	lines   []string
	omitted int
	secrets []builders.Secret
	// progress, when set, hears every line as it is added (the build's Observer).
	progress func(line string)
}

func (l *buildLog) add(lines ...string) {
	for _, line := range lines {
		line = builders.Scrub(ansiEscape.ReplaceAllString(line, ""), l.secrets...)
		l.lines = append(l.lines, line)
		if l.progress != nil {
			l.progress(line)
		}
	}
	if over := len(l.lines) - maxLogLines; over > 0 {
		l.lines, l.omitted = l.lines[over:], l.omitted+over
	}
}

func (l *buildLog) addf(format string, args ...any) { l.add(fmt.Sprintf(format, args...)) }

func (l *buildLog) entries(entries []buildLogEntry) {
	for _, e := range entries {
		l.add(e.Message)
	}
}

// result is the collected lines, headed by a count of the ones dropped for length.
func (l *buildLog) result() []string {
	if l.omitted == 0 {
		return append([]string(nil), l.lines...)
	}
	return append([]string{fmt.Sprintf("... %d earlier log lines omitted", l.omitted)}, l.lines...)
}
