package conformance

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// TestMain removes the emulator binary built for the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// emulatorBinary builds cmd/sandbox-emulator once per test binary: the conformance tests drive the
// standalone emulator from outside, exactly as the demo and a user's CI do.
func emulatorBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sandbox-emulator-") //nolint:usetesting // one binary for every test of the run; TestMain removes it
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "sandbox-emulator")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/sandboxtf/terraform-provider-sandbox/cmd/sandbox-emulator")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("building cmd/sandbox-emulator: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

// startEmulator runs the standalone emulator with args until the test ends and returns the
// NAME=value settings it printed, once every name in need has appeared.
func startEmulator(t *testing.T, need []string, args ...string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, emulatorBinary(t), args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("emulator stderr:\n%s", stderr.String())
		}
	})

	settings := map[string]string{}
	lines := make(chan string)
	go func() {
		defer close(lines)
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
	}()
	deadline := time.After(60 * time.Second)
	for !hasAll(settings, need) {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the emulator stopped before printing %v (got %v); stderr:\n%s", need, settings, stderr.String())
			}
			if name, value, found := strings.Cut(line, "="); found && !strings.HasPrefix(line, "#") {
				settings[name] = value
			}
		case <-deadline:
			t.Fatalf("the emulator printed no %v within 60 s (got %v)", need, settings)
		}
	}
	go func() { // keep draining, so the emulator never blocks on a full pipe
		for range lines {
		}
	}()
	return settings
}

func hasAll(settings map[string]string, names []string) bool {
	for _, n := range names {
		if _, ok := settings[n]; !ok {
			return false
		}
	}
	return true
}

// envOf renders settings as NAME=value entries for a child process.
func envOf(settings map[string]string) []string {
	env := make([]string, 0, len(settings))
	for name, value := range settings {
		env = append(env, name+"="+value)
	}
	return env
}
