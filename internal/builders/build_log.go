package builders

import (
	"fmt"
	"regexp"
)

// MaxBuildLogLines keeps the tail of a long build (pip output) in TemplateBuildResult.Logs.
const MaxBuildLogLines = 500

// ansiEscape matches terminal colour codes, stripped as E2B's SDKs strip them.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// BuildLog collects a build's lines for TemplateBuildResult.Logs, each stripped of colour codes,
// cut at MaxLogLineBytes and scrubbed of Secrets (a registry or a command may echo a credential),
// and keeps the last MaxBuildLogLines of them. The lines of a build's or a command's output are
// scrubbed as one text (lineWindow): the newest are held back until a secret split across two of
// them can be redacted in both, so Progress hears them a few lines late; the log's own lines, and
// Lines, emit what is held.
type BuildLog struct {
	Secrets []Secret
	// Progress, when set, hears every line as it is emitted (the build's Observer), so the CLI
	// shows the build while it runs.
	Progress func(line string)

	window  lineWindow
	lines   []string
	omitted int
}

// Add adds lines of the log's own, each whole (a secret in one is redacted); they are emitted
// at once, after the output lines held before them.
func (l *BuildLog) Add(lines ...string) {
	for _, line := range lines {
		l.window.add("", line, l.Secrets, l.emit)
		l.window.flush(l.emit)
	}
}

func (l *BuildLog) Addf(format string, args ...any) { l.Add(fmt.Sprintf(format, args...)) }

// AddOutput adds a line of a build's or a command's output, shown under label, a text of the
// log's own such as a stream's name (or none). A line of output may hold part of a secret whose
// rest is in the next line (a command writing it in two pieces, execd sending each piece as an
// event): the window joins the lines' text, not their labels, so a secret split across two lines
// of stderr is found.
func (l *BuildLog) AddOutput(label, line string) { l.window.add(label, line, l.Secrets, l.emit) }

func (l *BuildLog) emit(line string) {
	l.lines = append(l.lines, line)
	if l.Progress != nil {
		l.Progress(line)
	}
	if over := len(l.lines) - MaxBuildLogLines; over > 0 {
		l.lines, l.omitted = l.lines[over:], l.omitted+over
	}
}

// Lines are the collected lines, headed by a count of the ones dropped for length. The lines held
// back are emitted first, scrubbed as far as what came before them allows: Lines is called when
// the build ends.
func (l *BuildLog) Lines() []string {
	l.window.flush(l.emit)
	if l.omitted == 0 {
		return append([]string(nil), l.lines...)
	}
	return append([]string{fmt.Sprintf("... %d earlier log lines omitted", l.omitted)}, l.lines...)
}
