// Command bench is the benchmark (`make bench`): the locally built provider (a dev override, as in
// scripts/demo.sh) against the E2B emulator of cmd/sandbox-emulator on 127.0.0.1, driven by
// bin/terraform. It measures, and writes to BENCHMARKS.md (overwritten):
//   - apply, refresh, no-op plan and destroy wall time of N sandbox_template vs N terraform_data,
//     same run, as a ratio, and of N floor_thing (internal/benchfloor: the smallest framework
//     provider, the floor any plugin provider pays, since terraform_data is built into the CLI) and
//     N floor_template (sandbox_template's schema without its logic: what the framework and the CLI
//     pay for it);
//   - E2B API requests per template for each of those operations (the emulator's counts);
//   - latency from a build turning ready in the emulator to the create finishing, for single
//     templates and for several in parallel with short and long builds;
//   - status polls per build-minute during long builds;
//   - the apply time of 25 templates against a team build limit of 5, vs ceil(25/5) × build time;
//   - provider start-up: `terraform providers schema -json` and BenchmarkProviderSchema;
//   - in process, the provider's part of planning one template: BenchmarkTemplatePlanRPCs, and
//     BenchmarkSchemaFloorPlanRPCs, the same for the schema without logic;
//   - peak RSS and CPU time of the provider processes during the largest apply.
//
// It reports; it asserts nothing. The emulator builds in zero time unless asked, so what is timed
// is the provider and Terraform, not a backend. The emulator's counters are its own Stats
// (e2bemu.StatsPath) and the poll times the report predicts are the E2B builder's schedule.
//
// Run it from the repository's root: go run ./internal/bench [flags] (see -help).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// options are the flags: how big and how often, and where to write.
type options struct {
	root          string // the repository
	terraform     string
	provider      string // the provider binary dev_overrides runs
	sizes         []int
	reps          int // of each scale measurement
	runs          int // of each latency, schema and Go benchmark measurement
	buildDuration time.Duration
	longBuild     time.Duration
	parTemplates  int
	shortReps     int
	limitBuild    time.Duration
	note          string
	out           string
	keep          bool
	only          string
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	flags := flag.NewFlagSet("bench", flag.ContinueOnError)
	flags.SetOutput(stderr)
	o := options{}
	flags.StringVar(&o.root, "root", ".", "the repository's root (bin/ and cmd/ are found there)")
	flags.StringVar(&o.terraform, "terraform", "", "the CLI to drive (default: <root>/bin/terraform)")
	flags.StringVar(&o.provider, "provider", "", "the provider binary to measure (default: <root>/bin/terraform-provider-sandbox)")
	sizes := flags.String("sizes", "50,200", "how many resources each scale measurement applies, comma-separated; the last is the largest")
	flags.IntVar(&o.reps, "reps", 3, "repetitions of each scale measurement")
	flags.IntVar(&o.runs, "runs", 5, "runs of each latency, schema and Go benchmark measurement")
	flags.DurationVar(&o.buildDuration, "build-duration", 2*time.Second, "the short builds: single-template latency and ready → done")
	flags.DurationVar(&o.longBuild, "long-build", 60*time.Second, "the long builds: ready → done and status polls per build-minute")
	flags.IntVar(&o.parTemplates, "par-templates", 5, "templates per ready → done apply")
	flags.IntVar(&o.shortReps, "short-reps", 3, "applies of short builds in the ready → done measurement")
	flags.DurationVar(&o.limitBuild, "limit-build", 10*time.Second, "build time under the team build limit")
	flags.StringVar(&o.note, "note", "", "a caveat for the report's header (e.g. who else used the machine)")
	flags.StringVar(&o.out, "out", "BENCHMARKS.md", "the report (relative to -root)")
	flags.BoolVar(&o.keep, "keep", false, "keep the working directory")
	flags.StringVar(&o.only, "only", "", `"builds": only the build measurements (ready → done, polls, build limit), printed to stdout; the report is untouched`)
	if err := flags.Parse(args); err != nil {
		return o, err
	}
	if flags.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q (see -help)", flags.Args())
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-sizes %q: want positive counts, comma-separated", *sizes)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.reps < 1 || o.runs < 1 || o.parTemplates < 1 || o.shortReps < 1 {
		return o, fmt.Errorf("-reps, -runs, -par-templates and -short-reps must be at least 1")
	}
	if o.only != "" && o.only != "builds" {
		return o, fmt.Errorf(`-only %q: the only subset is "builds"`, o.only)
	}
	root, err := filepath.Abs(o.root)
	if err != nil {
		return o, err
	}
	o.root = root
	if o.terraform == "" {
		o.terraform = filepath.Join(root, "bin", "terraform")
	}
	if o.provider == "" {
		o.provider = filepath.Join(root, "bin", "terraform-provider-sandbox")
	}
	if o.provider, err = filepath.Abs(o.provider); err != nil {
		return o, err
	}
	if !filepath.IsAbs(o.out) {
		o.out = filepath.Join(root, o.out)
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	b, err := start(o, stderr)
	if err != nil {
		return err
	}
	err = b.measure(stdout)
	return errors.Join(err, b.close())
}

// measure takes every measurement in turn and writes the report (or, with -only builds, prints
// the build measurements' part of it).
func (b *bench) measure(stdout io.Writer) error {
	started := time.Now()
	r := &results{options: b.o, loadStart: loadAverage()}
	if b.o.only == "builds" {
		if err := b.buildRuns(r); err != nil {
			return err
		}
		r.loadEnd = loadAverage()
		renderBuildsOnly(stdout, r, machine())
		b.logf("done in %.2f s (-only builds: %s untouched)", time.Since(started).Seconds(), b.o.out)
		return nil
	}
	for _, n := range b.o.sizes {
		for rep := 1; rep <= b.o.reps; rep++ {
			b.logf("N=%d rep %d/%d: apply, refresh, plan, destroy (sandbox_template, terraform_data, floor_thing, floor_template)", n, rep, b.o.reps)
			if err := b.scaleRep(r, n, rep); err != nil {
				return err
			}
		}
	}
	largest := b.o.sizes[len(b.o.sizes)-1]
	b.logf("peak RSS during an apply of %d", largest)
	if err := b.peakRSS(r, largest); err != nil {
		return err
	}
	b.logf("build ready → create finished (%d runs, %s builds)", b.o.runs, b.o.buildDuration)
	if err := b.latencyRuns(r); err != nil {
		return err
	}
	if err := b.buildRuns(r); err != nil {
		return err
	}
	b.logf("providers schema (%d runs) and the Go benchmarks", b.o.runs)
	if err := b.schemaRuns(r); err != nil {
		return err
	}
	if err := b.goBenchmarks(r); err != nil {
		return err
	}
	r.loadEnd = loadAverage()
	r.header = b.header()
	if err := writeReport(b.o.out, r); err != nil {
		return err
	}
	b.logf("done in %.2f s: %s", time.Since(started).Seconds(), b.o.out)
	return nil
}
