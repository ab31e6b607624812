package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// goBenchPattern selects internal/provider's benchmarks the report quotes.
const goBenchPattern = "^Benchmark(ProviderSchema|TemplatePlanRPCs|SchemaFloorPlanRPCs)$"

// goBenchmarks runs them -runs times. The runs take turns (not -count, which runs one benchmark
// -runs times before the next), so a change in the machine's load falls on all of them alike.
func (b *bench) goBenchmarks(r *results) error {
	for range b.o.runs {
		cmd := exec.Command("go", "test", "-count=1", "-run", "^$", "-bench", goBenchPattern, "-benchmem", "./internal/provider/")
		cmd.Dir = b.o.root
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("the Go benchmarks failed: %w\n%s", err, out)
		}
		r.goBench = append(r.goBench, benchmarkLines(out)...)
		for _, backend := range backends.Where(func(b *builders.Backend) bool { return b.Checks }) {
			lines, err := b.checkBenchmark(string(backend.Name))
			if err != nil {
				return err
			}
			r.goBench = append(r.goBench, lines...)
		}
	}
	return nil
}

// checkBenchmark runs BenchmarkCheckTrue of one backend's package (every backend that checks has
// one): a check of `true` against its emulator, from the sandbox's start to the command's result and
// the sandbox's end. Its lines are named after the backend: BenchmarkCheckTrue/e2b.
func (b *bench) checkBenchmark(backend string) ([]string, error) {
	cmd := exec.Command("go", "test", "-count=1", "-run", "^$", "-bench", "^BenchmarkCheckTrue$", "-benchmem", "./internal/builders/"+backend+"/")
	cmd.Dir = b.o.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("BenchmarkCheckTrue of %s failed: %w\n%s", backend, err, out)
	}
	lines := benchmarkLines(out)
	for i, line := range lines {
		lines[i] = strings.Replace(line, "BenchmarkCheckTrue", "BenchmarkCheckTrue/"+backend, 1)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("the %s backend checks, but its package has no BenchmarkCheckTrue", backend)
	}
	return lines, nil
}

// benchmarkLines are the result lines of `go test -bench` output.
func benchmarkLines(out []byte) []string {
	var lines []string
	for s := bufio.NewScanner(bytes.NewReader(out)); s.Scan(); {
		if line := s.Text(); strings.HasPrefix(line, "Benchmark") && strings.Contains(line, "ns/op") {
			lines = append(lines, line)
		}
	}
	return lines
}

// goBenchValues are the values of unit (ns/op, allocs/op) on the lines of Benchmark<name> (any -P).
func goBenchValues(lines []string, name, unit string) []float64 {
	var values []float64
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 || (f[0] != "Benchmark"+name && !strings.HasPrefix(f[0], "Benchmark"+name+"-")) {
			continue
		}
		for i := 2; i < len(f); i++ {
			if f[i] == unit {
				if v, err := strconv.ParseFloat(f[i-1], 64); err == nil {
					values = append(values, v)
				}
			}
		}
	}
	return values
}
