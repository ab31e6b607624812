package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProviderLogsWhenAsked: the provider turns its loggers off when the CLI would discard them
// (TF_LOG and TF_LOG_PROVIDER unset, see pluginlog.SilenceDiscarded), so this guards the other
// side: with TF_LOG_PROVIDER set, the framework's and the provider's log lines reach the CLI's log.
func TestProviderLogsWhenAsked(t *testing.T) {
	c := newCLI(t)
	c.write("main.tf", `
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
}
`)
	logPath := filepath.Join(c.dir, "cli.log")
	c.env = append(c.env, "TF_LOG_PROVIDER=TRACE", "TF_LOG_PATH="+logPath)
	if out, err := c.run("validate", "-no-color"); err != nil {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, module := range []string{"@module=sdk.framework", "@module=sdk.proto"} {
		if !strings.Contains(string(log), module) {
			t.Errorf("the CLI log has no %s line from the provider; its log has %d bytes", module, len(log))
		}
	}
}
