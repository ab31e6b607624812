package lifecycle

import (
	"slices"
	"testing"
)

// TestSequencesReplay: a seed always makes the same steps, and each step reads back from the line
// a failure prints, so both replays (LIFECYCLE_SEED, LIFECYCLE_STEPS) run what failed.
func TestSequencesReplay(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		steps, again := generate(seed, 30), generate(seed, 30)
		replayed := config{}
		for i, st := range steps {
			if st.String() != again[i].String() {
				t.Fatalf("seed %d step %d: %s, then %s", seed, i+1, st, again[i])
			}
			parsed, err := parseStep(st.String())
			if err != nil || parsed.String() != st.String() {
				t.Fatalf("seed %d step %d: %q reads back as %q (%v)", seed, i+1, st, parsed, err)
			}
			if err := replayed.apply(parsed.Edits); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, i+1, err)
			}
		}
	}
}

// TestPipPackages reads back what both builders send: E2B's RUN step and OpenSandbox's command,
// each requirement single-quoted.
func TestPipPackages(t *testing.T) {
	got := pipPackages([]string{
		`pip install -- 'numpy' 'requests>=2' 'it'\''s'`,
		`python3 -m pip install --no-input --disable-pip-version-check 'pandas==2.2.3'`,
		`echo unrelated`,
	})
	if want := []string{"numpy", "requests>=2", "it's", "pandas==2.2.3"}; !slices.Equal(got, want) {
		t.Errorf("pipPackages = %q, want %q", got, want)
	}
}
