package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of /proc/<pid>/stat's CPU times: 100 on every Linux architecture Go supports.
const userHZ = 100

// rssResult is the peak resident set of the processes of one apply, and their CPU time.
type rssResult struct {
	n                         int
	providerKB, terraformKB   int     // VmHWM: the kernel's peak resident set
	providerCPU, terraformCPU float64 // seconds, user + system
	wall                      float64
}

// peakRSS runs an extra, untimed apply of n templates while polling VmHWM of every provider
// process Terraform starts (one per phase) and of Terraform itself. Untimed because the polling
// costs CPU on a small machine. The same polls read each process's CPU time, to tell whose CPU an
// apply on few cores waits for.
func (b *bench) peakRSS(r *results, n int) error {
	dir := filepath.Join(b.work, fmt.Sprintf("rss-%d", n))
	if err := writeConfig(dir, sandbox, fmt.Sprintf("rss%d", n)); err != nil {
		return err
	}
	logPath := filepath.Join(dir, "apply.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer func() { _ = logFile.Close() }()
	cmd := b.tfCommand(dir, b.fast.url, append([]string{"apply", "-auto-approve"}, sized(n)...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	res := rssResult{n: n}
	tfPID := cmd.Process.Pid
	var tfTicks int
	providerTicks := map[int]int{} // pid: its last CPU ticks seen
	for polling := true; polling; {
		select {
		case err = <-done:
			polling = false
		case <-time.After(50 * time.Millisecond):
			res.terraformKB = max(res.terraformKB, vmHWM(tfPID))
			tfTicks = cpuTicks(tfPID, tfTicks)
			for _, child := range children(tfPID) {
				if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", child)); exe != b.o.provider {
					continue
				}
				res.providerKB = max(res.providerKB, vmHWM(child))
				providerTicks[child] = cpuTicks(child, providerTicks[child])
			}
		}
	}
	if err != nil {
		return fmt.Errorf("the RSS apply failed: %w\n%s", err, tail(logPath, 30))
	}
	res.wall = time.Since(start).Seconds()
	for _, ticks := range providerTicks {
		res.providerCPU += float64(ticks) / userHZ
	}
	res.terraformCPU = float64(tfTicks) / userHZ
	r.rss = res
	_, err = b.tf(dir, "destroy", b.fast.url, append([]string{"destroy", "-auto-approve"}, sized(n)...)...)
	return err
}

// vmHWM is pid's peak RSS in kB, 0 when it is gone.
func vmHWM(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return kb
		}
	}
	return 0
}

// statFields are /proc/<pid>/stat's fields after the command name (which may hold spaces), from
// the state (field 3) on; nil when the process is gone.
func statFields(pid int) []string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

// cpuTicks is pid's user + system clock ticks so far, or last once it is gone.
func cpuTicks(pid, last int) int {
	f := statFields(pid)
	if len(f) < 13 {
		return last
	}
	user, err1 := strconv.Atoi(f[11]) // utime, field 14
	system, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		return last
	}
	return user + system
}

// children are the processes whose parent is pid.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var kids []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := statFields(child); len(f) > 1 && f[1] == strconv.Itoa(pid) { // ppid, field 4
			kids = append(kids, child)
		}
	}
	return kids
}
