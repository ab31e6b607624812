package builders

import (
	"slices"
	"strings"
	"testing"
)

// splitSecret is a secret none of whose halves is in the text around it.
const splitSecret = "Zq7-T0KEN-splitting-9vX"

// logged feeds lines of output to a BuildLog holding splitSecret and returns what Progress heard
// and what Lines kept, which must be the same lines.
func logged(t *testing.T, add func(*BuildLog)) []string {
	t.Helper()
	var heard []string
	l := &BuildLog{Secrets: []Secret{NewSecret(splitSecret)}, Progress: func(line string) { heard = append(heard, line) }}
	add(l)
	if lines := l.Lines(); !slices.Equal(lines, heard) {
		t.Errorf("Progress heard %q, Lines are %q", heard, lines)
	}
	return heard
}

// assertNoPart fails when any part of splitSecret of 4 bytes or more, in form, is in lines.
func assertNoPart(t *testing.T, lines []string, form func(string) string) {
	t.Helper()
	text := strings.Join(lines, "\n")
	for i := 0; i+4 <= len(splitSecret); i++ {
		if part := form(splitSecret[i : i+4]); strings.Contains(text, part) {
			t.Fatalf("%q of the secret is in the log: %q", part, lines)
		}
	}
}

// A secret a command writes in pieces (two lines, execd's events) is redacted in each line, before
// any listener hears either, in every form Scrub knows.
func TestBuildLogRedactsASecretSplitAcrossLines(t *testing.T) {
	for name, encode := range textEncoders {
		for split := 1; split < len(splitSecret); split += 3 {
			first, second := encode(splitSecret[:split]), encode(splitSecret[split:])
			lines := logged(t, func(l *BuildLog) {
				l.AddOutput("", "token: "+first)
				l.AddOutput("", second+" (printed in two writes)")
				l.Add("done") // the log's own line emits what is held
			})
			assertNoPart(t, lines, encode)
			if len(lines) != 3 || !strings.HasSuffix(lines[0], Redacted) || !strings.HasPrefix(lines[1], Redacted) || lines[2] != "done" {
				t.Errorf("%s, split at %d: %q, want each half redacted and the lines in order", name, split, lines)
			}
		}
	}
}

// A secret split over three lines, and one split over two lines of stderr (execd's output, each
// line under its label), is redacted in each.
func TestBuildLogRedactsASecretOverManyLines(t *testing.T) {
	lines := logged(t, func(l *BuildLog) {
		l.AddOutput("", "a: "+splitSecret[:6])
		l.AddOutput("", splitSecret[6:12])
		l.AddOutput("", splitSecret[12:]+" :b")
	})
	assertNoPart(t, lines, func(s string) string { return s })
	if want := []string{"a: " + Redacted, Redacted, Redacted + " :b"}; !slices.Equal(lines, want) {
		t.Errorf("got %q, want %q", lines, want)
	}

	lines = logged(t, func(l *BuildLog) {
		l.AddOutput("stderr: ", "fatal: could not read https://x:"+splitSecret[:9])
		l.AddOutput("stderr: ", splitSecret[9:]+"@github.com/org/repo")
	})
	if want := []string{"stderr: fatal: could not read https://x:" + Redacted, "stderr: " + Redacted + "@github.com/org/repo"}; !slices.Equal(lines, want) {
		t.Errorf("got %q, want %q", lines, want)
	}
}

// Lines of output are held back only until no secret can reach past them: a long build's
// listener hears its lines while it runs.
func TestBuildLogHoldsBackOnlyWhatASecretCanReach(t *testing.T) {
	var heard []string
	l := &BuildLog{Secrets: []Secret{NewSecret(splitSecret)}, Progress: func(line string) { heard = append(heard, line) }}
	line := strings.Repeat("=", 79)
	for range 100 {
		l.AddOutput("", line)
	}
	if reach := reachOf([]string{splitSecret}); len(heard) < 100-reach/len(line)-2 {
		t.Errorf("Progress heard %d of 100 lines of %d bytes, want all but the last %d bytes", len(heard), len(line), reach)
	}
	heard = nil
	noSecrets := &BuildLog{Progress: func(line string) { heard = append(heard, line) }}
	noSecrets.AddOutput("", "no secrets in play: nothing held")
	if len(heard) != 1 {
		t.Error("with no secrets in play a line must be heard at once")
	}
}

// A log line is cut at MaxLogLineBytes after the secrets are looked for past the cut: one that
// straddles the cut is redacted whole, not shown up to the cut.
func TestBuildLogCutsLinesAfterScrubbing(t *testing.T) {
	for _, at := range []int{MaxLogLineBytes - 5, MaxLogLineBytes - len(splitSecret) + 1, MaxLogLineBytes} {
		line := strings.Repeat("#", at) + splitSecret + strings.Repeat("#", 4<<20)
		lines := logged(t, func(l *BuildLog) { l.AddOutput("", line) })
		assertNoPart(t, lines, func(s string) string { return s })
		if len(lines) != 1 || len(lines[0]) > MaxLogLineBytes+len(Redacted)+len("…") || !strings.HasSuffix(lines[0], "…") {
			t.Errorf("a %d-byte line is shown in %d bytes, want it cut at %d", len(line), len(lines[0]), MaxLogLineBytes)
		}
	}
}
