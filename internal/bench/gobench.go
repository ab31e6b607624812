package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
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
	}
	return nil
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
