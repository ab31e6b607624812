package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// header is what the report says about the run: when, where, with what.
type header struct {
	date     time.Time
	machine  string
	goVer    string
	clis     string
	provider string
}

// header describes this run; what cannot be read is said so rather than failing a long run.
func (b *bench) header() header {
	h := header{date: time.Now().UTC(), machine: machine(), goVer: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	h.clis = firstLine(b.env, b.o.terraform, "version")
	if tofu := filepath.Join(b.o.root, "bin", "tofu"); executable(tofu) {
		h.clis += ", " + firstLine(b.env, tofu, "version") + " (built, not benchmarked)"
	}
	rev := firstLine(nil, "git", "-C", b.o.root, "rev-parse", "--short", "HEAD")
	h.provider = "commit " + rev
	status, err := exec.Command("git", "-C", b.o.root, "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)BENCHMARKS.md").Output()
	if dirty := strings.Count(string(status), "\n"); err == nil && dirty > 0 {
		h.provider += fmt.Sprintf(" plus %d uncommitted changed files in the tree", dirty)
	}
	return h
}

// firstLine is the first line a command prints, "unknown" when it fails or prints none; env nil
// is this process's environment.
func firstLine(env []string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.Output()
	if line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n"); err == nil && line != "" {
		return line
	}
	return "unknown"
}

// machine is "N CPUs, model, memory".
func machine() string {
	model, mem := "unknown model", "unknown memory"
	if cpuinfo, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(cpuinfo), "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "model name" {
				model = strings.TrimSpace(value)
				break
			}
		}
	}
	if meminfo, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(meminfo), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
				mem = fmt.Sprintf("%.1f GiB", kb/1048576)
			}
		}
	}
	return fmt.Sprintf("%d CPUs, %s, %s", runtime.NumCPU(), model, mem)
}

// loadAverage is /proc/loadavg's 1, 5 and 15 minute averages.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}
