package lifecycle

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Budget of `make test`, per CLI: sized so the three CLIs together add a few minutes on two cores.
const (
	defaultSeeds    = 10
	defaultLength   = 14
	defaultParallel = 2
)

// TestLifecycleModel runs seeded sequences of steps (steps_test.go) on the CLI under test and checks
// the invariants (invariants_test.go) after each. Knobs, all optional:
//
//	LIFECYCLE_CLI=bin/terraform-current  the CLI (else TF_ACC_TERRAFORM_PATH, with TF_ACC=1)
//	LIFECYCLE_SEED=123                   only this seed (the replay a failure prints)
//	LIFECYCLE_SEEDS=200                  this many seeds, from LIFECYCLE_FIRST_SEED (default 1): a soak
//	LIFECYCLE_LENGTH=14                  steps per sequence
//	LIFECYCLE_PARALLEL=2                 sequences at a time
//	LIFECYCLE_STEPS=file                 replay these steps, one per line, as a failure prints them
//	LIFECYCLE_SHRINK=1                   on failure, drop every step the failure does not need
func TestLifecycleModel(t *testing.T) {
	tl := buildTools(t)
	if file := os.Getenv("LIFECYCLE_STEPS"); file != "" {
		steps := readSteps(t, file)
		if f := runSequence(tl, steps); f != nil {
			t.Fatal(f.report(tl, "LIFECYCLE_STEPS="+file, steps))
		}
		return
	}
	first, count := envInt(t, "LIFECYCLE_FIRST_SEED", 1), envInt(t, "LIFECYCLE_SEEDS", defaultSeeds)
	if seed := os.Getenv("LIFECYCLE_SEED"); seed != "" {
		first, count = envInt(t, "LIFECYCLE_SEED", 0), 1
	}
	length, parallel := envInt(t, "LIFECYCLE_LENGTH", defaultLength), envInt(t, "LIFECYCLE_PARALLEL", defaultParallel)

	started := time.Now()
	seeds := make(chan int, count)
	for seed := first; seed < first+count; seed++ {
		seeds <- seed
	}
	close(seeds)
	var mu sync.Mutex
	var ran, failed int
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				steps := generate(uint64(seed), length)
				f := runSequence(tl, steps)
				mu.Lock()
				if f == nil {
					ran += len(steps)
				} else {
					ran += f.index + 1
					failed++
					report := f.report(tl, fmt.Sprintf("LIFECYCLE_SEED=%d LIFECYCLE_LENGTH=%d", seed, length), steps)
					if os.Getenv("LIFECYCLE_SHRINK") != "" {
						report += shrink(tl, steps[:f.index+1], f)
					}
					t.Errorf("seed %d: %s", seed, report)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d sequences (seeds %d..%d), %d steps, %d failed, on %s in %s", count, first, first+count-1, ran, failed,
		tl.cli, time.Since(started).Round(time.Second))
}

// failure is the first step after which an invariant did not hold.
type failure struct {
	index      int
	step       step
	violations []violation
	runs       []run
	note       string
	dir        string // the sequence's directories and log, kept
}

func (f *failure) invariants() string {
	var names []string
	for _, v := range f.violations {
		names = append(names, v.invariant)
	}
	return strings.Join(names, "; ")
}

// report is what a failure prints: the steps so far, what broke, the step's CLI runs and the one
// command that replays the sequence.
func (f *failure) report(tl tools, replay string, steps []step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "after step %d on %s:\n", f.index+1, tl.relative(tl.cli))
	for i, st := range steps[:f.index+1] {
		marker := "  "
		if i == f.index {
			marker = "> "
		}
		fmt.Fprintf(&b, "  %s%2d  %s\n", marker, i+1, st)
	}
	if f.note != "" {
		fmt.Fprintf(&b, "  (%s)\n", f.note)
	}
	b.WriteString("broken:\n")
	for _, v := range f.violations {
		fmt.Fprintf(&b, "  - %s\n", v)
	}
	b.WriteString("CLI runs of that step:\n")
	for _, r := range f.runs {
		fmt.Fprintf(&b, "  %s$ %s %s (exit %d)\n", r.dir, filepath.Base(tl.cli), strings.Join(r.args, " "), r.code)
		if r.code != 0 && r.output != "" {
			fmt.Fprintf(&b, "%s\n", tail(r.output, 12))
		}
	}
	if f.dir != "" {
		fmt.Fprintf(&b, "every CLI run's output: %s\n", filepath.Join(f.dir, "log.txt"))
	}
	fmt.Fprintf(&b, "replay:\n  %s\n", tl.replay(replay))
	return b.String()
}

// replay is the command that runs the test again with these settings on the same CLI.
func (tl tools) replay(settings string) string {
	return fmt.Sprintf("%s LIFECYCLE_CLI=%s go test ./internal/lifecycle -run TestLifecycleModel -count=1", settings, tl.relative(tl.cli))
}

// runSequence runs steps on a fresh emulator and returns the first failure, or nil. A failed
// sequence keeps its directory: both working directories and log.txt, every CLI run's full output.
func runSequence(tl tools, steps []step) *failure {
	root, err := os.MkdirTemp("", "lifecycle-")
	if err != nil {
		return &failure{violations: []violation{{invStepFinish, err.Error()}}}
	}
	f := runSequenceIn(tl, root, steps)
	if f == nil {
		_ = os.RemoveAll(root)
		return nil
	}
	f.dir = root
	return f
}

func runSequenceIn(tl tools, root string, steps []step) *failure {
	s, err := newSequence(tl, root)
	if err != nil {
		return &failure{violations: []violation{{invStepFinish, "starting: " + err.Error()}}}
	}
	defer s.close()
	log, err := os.Create(filepath.Join(root, "log.txt"))
	if err != nil {
		return &failure{violations: []violation{{invStepFinish, err.Error()}}}
	}
	defer func() { _ = log.Close() }()
	for i, st := range steps {
		before := maps.Clone(s.madeFrom)
		out, err := s.perform(st)
		vs := s.check(&out, before)
		if err != nil {
			vs = append(vs, violation{invStepFinish, err.Error()})
		}
		if st.Verb == verbSecondDir && slices.Contains(out.checked, s.dirs[1]) {
			r, err := s.forgetSecond(st.Arg)
			out.runs = append(out.runs, r)
			if err != nil {
				vs = append(vs, violation{invStepFinish, err.Error()})
			}
		}
		_, _ = fmt.Fprintf(log, "=== step %d: %s\n", i+1, st)
		for _, r := range out.runs {
			_, _ = fmt.Fprintf(log, "--- %s$ %s (exit %d)\n%s\n", r.dir, strings.Join(r.args, " "), r.code, r.output)
		}
		if len(vs) > 0 {
			return &failure{index: i, step: st, violations: vs, runs: out.runs, note: out.note}
		}
	}
	return nil
}

// shrink drops, one at a time from the end, each step the failure does not need (the same
// invariants still break without it), writes what is left to a file and says how to replay it.
func shrink(tl tools, steps []step, f *failure) string {
	want := f.invariants()
	for i := len(steps) - 2; i >= 0; i-- {
		candidate := append(append([]step{}, steps[:i]...), steps[i+1:]...)
		g := runSequence(tl, candidate)
		if g != nil && g.index == len(candidate)-1 && g.invariants() == want {
			steps = candidate
		}
		if g != nil {
			_ = os.RemoveAll(g.dir)
		}
	}
	file, err := os.CreateTemp("", "lifecycle-*.steps")
	if err != nil {
		return "shrinking: " + err.Error()
	}
	defer func() { _ = file.Close() }()
	var lines []string
	for _, st := range steps {
		lines = append(lines, st.String())
	}
	_, _ = file.WriteString(strings.Join(lines, "\n") + "\n")
	return fmt.Sprintf("shrunk to %d steps:\n  %s\nreplay:\n  %s\n", len(steps), strings.Join(lines, "\n  "),
		tl.replay("LIFECYCLE_STEPS="+file.Name()))
}

func readSteps(t *testing.T, file string) []step {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		st, err := parseStep(line)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, st)
	}
	return steps
}

// buildTools finds the CLI under test and builds the provider and the emulator once.
func buildTools(t *testing.T) tools {
	t.Helper()
	root := moduleRoot(t)
	cli := os.Getenv("LIFECYCLE_CLI")
	if cli == "" && os.Getenv("TF_ACC") != "" {
		cli = os.Getenv("TF_ACC_TERRAFORM_PATH")
	}
	if cli == "" {
		t.Skip("the lifecycle model test needs a CLI: LIFECYCLE_CLI, or TF_ACC=1 and TF_ACC_TERRAFORM_PATH (make test sets them)")
	}
	if !filepath.IsAbs(cli) {
		cli = filepath.Join(root, cli)
	}
	version := exec.Command(cli, "version")
	version.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
	out, err := version.Output()
	name, minor := cliVersion(string(out))
	if err != nil || name == "" {
		t.Fatalf("%s version: %v\n%s", cli, err, out)
	}
	bin := t.TempDir()
	tl := tools{cli: cli, providerDir: bin, emulatorBin: filepath.Join(bin, "sandbox-emulator"), root: root,
		leavesFailedCreatesOut: name == "Terraform" && minor >= 16}
	for out, pkg := range map[string]string{filepath.Join(bin, "terraform-provider-sandbox"): ".", tl.emulatorBin: "./cmd/sandbox-emulator"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Dir = root
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return tl
}

// cliVersion reads `version`'s output: Terraform or OpenTofu, and the minor version of 1.x.
func cliVersion(output string) (name string, minor int) {
	m := regexp.MustCompile(`(?m)^(Terraform|OpenTofu) v1\.(\d+)\.`).FindStringSubmatch(output)
	if m == nil {
		return "", 0
	}
	minor, _ = strconv.Atoi(m[2])
	return m[1], minor
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// relative names a path under the module root as the replay command, run from there, reads it.
func (tl tools) relative(path string) string {
	if rel, err := filepath.Rel(tl.root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, v)
	}
	return n
}
