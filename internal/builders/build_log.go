package builders

import (
	"fmt"
	"regexp"
)

// MaxBuildLogLines keeps the tail of a long build (pip output) in TemplateBuildResult.Logs.
const MaxBuildLogLines = 500

// ansiEscape matches terminal colour codes, stripped as E2B's SDKs strip them.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// BuildLog collects a build's lines for TemplateBuildResult.Logs, each stripped of colour codes
// and scrubbed of Secrets (a registry or a command may echo a credential), and keeps the last
// MaxBuildLogLines of them.
type BuildLog struct {
	Secrets []Secret
	// Progress, when set, hears every line as it is added (the build's Observer), so the CLI shows
	// the build while it runs.
	Progress func(line string)

	lines   []string
	omitted int
}

func (l *BuildLog) Add(lines ...string) {
	for _, line := range lines {
		line = Scrub(ansiEscape.ReplaceAllString(line, ""), l.Secrets...)
		l.lines = append(l.lines, line)
		if l.Progress != nil {
			l.Progress(line)
		}
	}
	if over := len(l.lines) - MaxBuildLogLines; over > 0 {
		l.lines, l.omitted = l.lines[over:], l.omitted+over
	}
}

func (l *BuildLog) Addf(format string, args ...any) { l.Add(fmt.Sprintf(format, args...)) }

// Lines are the collected lines, headed by a count of the ones dropped for length.
func (l *BuildLog) Lines() []string {
	if l.omitted == 0 {
		return append([]string(nil), l.lines...)
	}
	return append([]string{fmt.Sprintf("... %d earlier log lines omitted", l.omitted)}, l.lines...)
}
