package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tf runs the CLI once in dir, its output in dir/<name>.log, and returns its wall time in seconds.
// e2bURL is the emulator the sandbox provider talks to. On failure the log's tail says why.
func (b *bench) tf(dir, name, e2bURL string, args ...string) (float64, error) {
	cmd := b.tfCommand(dir, e2bURL, args...)
	logPath := filepath.Join(dir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return 0, err
	}
	defer func() { _ = logFile.Close() }()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start).Seconds()
	if err != nil {
		return took, fmt.Errorf("terraform %s failed in %s: %w\n%s", strings.Join(args, " "), dir, err, tail(logPath, 30))
	}
	return took, nil
}

// tfCommand is the CLI's command line: quiet (except `providers`, which takes neither flag).
func (b *bench) tfCommand(dir, e2bURL string, args ...string) *exec.Cmd {
	full := append([]string{"-chdir=" + dir}, args...)
	if args[0] != "providers" {
		full = append(full, "-input=false", "-no-color")
	}
	cmd := exec.Command(b.o.terraform, full...)
	cmd.Env = append(append([]string{}, b.env...), "E2B_API_URL="+e2bURL)
	return cmd
}

// sized are the arguments of a run over count resources.
func sized(count int) []string {
	return []string{"-var", "n=" + strconv.Itoa(count), "-parallelism=" + strconv.Itoa(parallelism)}
}

func tail(path string, lines int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	var all []string
	for s := bufio.NewScanner(bytes.NewReader(data)); s.Scan(); {
		all = append(all, s.Text())
	}
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}
