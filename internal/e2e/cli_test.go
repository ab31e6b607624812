package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

var (
	buildOnce   sync.Once
	providerDir string
	buildErr    error
)

// cli is one CLI working directory with the locally built provider installed as a dev override.
type cli struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

func newCLI(t *testing.T) *cli {
	t.Helper()
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" || os.Getenv("TF_ACC") == "" {
		t.Skip("end-to-end CLI tests need TF_ACC=1 and TF_ACC_TERRAFORM_PATH (run them with `make test`)")
	}
	buildOnce.Do(func() {
		providerDir, buildErr = os.MkdirTemp("", "sandbox-provider-") //nolint:usetesting // one build shared by every test of the package
		if buildErr == nil {
			out, err := exec.Command("go", "build", "-o", filepath.Join(providerDir, "terraform-provider-sandbox"),
				"github.com/sandboxtf/terraform-provider-sandbox").CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	dir := t.TempDir()
	rc := filepath.Join(dir, "dev.tfrc")
	overrides := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "sandboxtf/sandbox" = %q
    "hashicorp/sandbox" = %q
  }
  direct {}
}
`, providerDir, providerDir)
	if err := os.WriteFile(rc, []byte(overrides), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_LOG=")
	return &cli{t: t, bin: bin, dir: dir, env: env}
}

// newE2B starts an E2B emulator and returns it with the provider block that points at it.
func newE2B(t *testing.T) (*e2bemu.Server, string) {
	t.Helper()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: "e2e-key"})
	return emu, fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url = %q
    api_key = "e2e-key"
  }
}
`, emu.URL)
}

func (c *cli) write(name, content string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(content), 0o600); err != nil {
		c.t.Fatal(err)
	}
}

func (c *cli) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	return cmd
}

// run runs the CLI to completion and returns its combined output and error.
func (c *cli) run(args ...string) (string, error) {
	var out bytes.Buffer
	cmd := c.command(context.Background(), args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// supportsWriteOnly tells whether the CLI is Terraform or OpenTofu 1.11 or later.
func (c *cli) supportsWriteOnly() bool { return c.atLeast(11) }

// skipBelow114 skips the test on a CLI older than 1.14, which has neither actions nor `terraform query`.
func (c *cli) skipBelow114(feature string) {
	c.t.Helper()
	if !c.atLeast(14) {
		c.t.Skipf("%s needs Terraform 1.14 or later; %s is older", feature, c.bin)
	}
}

// atLeast tells whether the CLI's version is 1.minor or later.
func (c *cli) atLeast(wantMinor int) bool {
	out, err := c.run("version", "-json")
	if err != nil {
		c.t.Fatalf("%s version: %v\n%s", c.bin, err, out)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &v); err != nil {
		c.t.Fatalf("parsing the CLI version %q: %v", out, err)
	}
	var major, minor int
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &major, &minor); err != nil {
		c.t.Fatalf("parsing the CLI version %q: %v", v.Version, err)
	}
	return major > 1 || (major == 1 && minor >= wantMinor)
}
