package builders

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every backend's build log strips colour codes, scrubs the build's secrets before anyone hears a
// line, and keeps only the tail of a long build, saying how much it dropped.
func TestBuildLogScrubsStripsAndKeepsTheTail(t *testing.T) {
	const secret = "s3cr3t-registry-password"
	var heard []string
	l := &BuildLog{Secrets: []Secret{NewSecret(secret)}, Progress: func(line string) { heard = append(heard, line) }}
	l.Add("\x1b[1;32mStep 1\x1b[0m", "login with "+secret)
	for i := range MaxBuildLogLines + 10 {
		l.Addf("line %d", i)
	}

	if want := []string{"Step 1", "login with " + Redacted}; !slices.Equal(heard[:2], want) {
		t.Errorf("progress heard %q first, want %q", heard[:2], want)
	}
	if len(heard) != MaxBuildLogLines+12 {
		t.Errorf("progress heard %d lines, want every one of %d", len(heard), MaxBuildLogLines+12)
	}
	got := l.Lines()
	if len(got) != MaxBuildLogLines+1 || got[0] != "... 12 earlier log lines omitted" || got[1] != "line 10" ||
		got[len(got)-1] != fmt.Sprintf("line %d", MaxBuildLogLines+9) {
		t.Errorf("kept %d lines from %q to %q, want the header and the last %d", len(got), got[0], got[len(got)-1], MaxBuildLogLines)
	}
	if strings.Contains(strings.Join(heard, "\n"), secret) {
		t.Error("the secret reached a listener")
	}
}
