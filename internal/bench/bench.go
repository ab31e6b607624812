package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// apiKey is the only key the benchmark's emulators accept.
const apiKey = "bench-api-key"

// parallelism is Terraform's default, passed explicitly so the report says what it ran with.
const parallelism = 10

// bench is one run's working directory, binaries and emulators.
type bench struct {
	o    options
	log  io.Writer
	work string
	env  []string
	// fast builds in zero time; slow takes -build-duration; builds is set through its control path.
	fast, slow, builds *emulator
}

// start checks what the run needs, builds the emulator and the floor provider, and starts the
// emulators: it fails here, with the way out, rather than halfway through a long run.
func start(o options, log io.Writer) (*bench, error) {
	b := &bench{o: o, log: log}
	if _, err := exec.LookPath("go"); err != nil {
		return nil, errors.New("go is missing from PATH: install Go 1.26")
	}
	if !executable(o.terraform) {
		return nil, fmt.Errorf("%s is missing: run 'make tools'", o.terraform)
	}
	if !executable(o.provider) || filepath.Base(o.provider) != "terraform-provider-sandbox" {
		return nil, fmt.Errorf("%s is missing: run 'make build' (make bench does both)", o.provider)
	}
	if err := os.MkdirAll(filepath.Join(o.root, ".demo"), 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(filepath.Join(o.root, ".demo"), "bench.")
	if err != nil {
		return nil, err
	}
	b.work = work
	if err := b.setUp(); err != nil {
		return nil, errors.Join(err, b.close())
	}
	return b, nil
}

func (b *bench) setUp() error {
	emulatorBin := filepath.Join(b.work, "sandbox-emulator")
	floorDir := filepath.Join(b.work, "floor")
	for _, build := range [][]string{
		{"build", "-o", emulatorBin, "./cmd/sandbox-emulator"},
		{"build", "-o", filepath.Join(floorDir, "terraform-provider-floor"), "./internal/benchfloor"},
	} {
		cmd := exec.Command("go", build...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = b.o.root, b.log, b.log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go %s: %w", strings.Join(build, " "), err)
		}
	}
	var err error
	if b.fast, err = startEmulator(emulatorBin, b.work, "fast", 0); err != nil {
		return err
	}
	if b.slow, err = startEmulator(emulatorBin, b.work, "slow", b.o.buildDuration); err != nil {
		return err
	}
	if b.builds, err = startEmulator(emulatorBin, b.work, "builds", 0); err != nil {
		return err
	}
	tfrc := filepath.Join(b.work, "dev.tfrc")
	overrides := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "sandboxtf/sandbox" = %q
    "sandboxtf/floor"   = %q
  }
  direct {}
}
`, filepath.Dir(b.o.provider), floorDir)
	if err := os.WriteFile(tfrc, []byte(overrides), 0o644); err != nil {
		return err
	}
	b.env = cliEnv(os.Environ(), "TF_CLI_CONFIG_FILE="+tfrc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "E2B_API_KEY="+apiKey)
	return nil
}

// cliEnv is the CLI's environment: the caller's, without anything that would send Terraform or
// a backend elsewhere or make them log (TF_*, E2B_*, OPEN_SANDBOX_*), plus set.
func cliEnv(environ []string, set ...string) []string {
	var env []string
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "E2B_") && !strings.HasPrefix(kv, "OPEN_SANDBOX_") {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}

// close stops the emulators and removes the working directory, unless -keep.
func (b *bench) close() error {
	for _, e := range []*emulator{b.fast, b.slow, b.builds} {
		if e != nil {
			e.stop()
		}
	}
	if b.o.keep {
		b.logf("working dir kept: %s", b.work)
		return nil
	}
	return os.RemoveAll(b.work)
}

func (b *bench) logf(format string, args ...any) {
	_, _ = fmt.Fprintf(b.log, "bench: "+format+"\n", args...)
}

func executable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}
