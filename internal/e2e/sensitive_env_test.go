package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// newOpenSandbox starts an OpenSandbox emulator and returns the provider block that points at it.
func newOpenSandbox(t *testing.T, opts opensandboxemu.Options) string {
	t.Helper()
	opts.APIKey = "e2e-key"
	osb := opensandboxemu.NewTestServer(t, opts)
	return fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = "e2e-key"
  }
}
`, osb.URL)
}

// sensitiveToken is the value of the sensitive variable "token", which each configuration declares
// (tokenVariable) and the CLI reads from the environment, never from its arguments or files.
const sensitiveToken = "tok-e2e-Sens1tive-0042"

const tokenVariable = `
variable "token" {
  type      = string
  sensitive = true
}
`

func (c *cli) withToken() { c.env = append(c.env, "TF_VAR_token="+sensitiveToken) }

// mustRun runs the CLI, fails the test when it fails, and fails it when the output shows the token.
func (c *cli) mustRun(args ...string) string {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	c.noToken(strings.Join(args, " "), out)
	return out
}

func (c *cli) noToken(where, text string) {
	c.t.Helper()
	if strings.Contains(text, sensitiveToken) {
		c.t.Errorf("%s shows the sensitive token:\n%s", where, text)
	}
}

// TestSandboxEnvIsSensitive: an env step's value from a sensitive variable does not come out of
// sandbox_env in clear. Terraform strips the marks of sensitive variables before a provider sees
// the configuration, so sandbox_env is sensitive as a whole, and every CLI treats it as such: the
// plan, the apply and `show` print (sensitive value), and an output of it without sensitive = true
// is refused. `show -json` is the machine format: every CLI prints the values there in clear (the
// plan's variables too) and lists what is sensitive beside them (after_sensitive, sensitive_values),
// as it does for any sensitive attribute; what is asserted there is that flag.
func TestSandboxEnvIsSensitive(t *testing.T) {
	c := newCLI(t)
	c.withToken()
	provider := newOpenSandbox(t, opensandboxemu.Options{})
	template := provider + tokenVariable + `
resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
  image       = "opensandbox/code-interpreter:v1.1.0"
  steps       = [{ env = { API_TOKEN = var.token, MPLBACKEND = "Agg" } }]
}
`
	c.write("main.tf", template)
	masked := regexp.MustCompile(`sandbox_env\s+= \(sensitive value\)`)

	out := c.mustRun("plan", "-no-color", "-input=false", "-out=tfplan")
	if !masked.MatchString(out) {
		t.Errorf("the plan does not mask sandbox_env:\n%s", out)
	}
	var plan struct {
		ResourceChanges []struct {
			Change struct {
				After          map[string]any `json:"after"`
				AfterSensitive map[string]any `json:"after_sensitive"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	planJSON := c.jsonOf(&plan, "show", "-json", "tfplan")
	if len(plan.ResourceChanges) != 1 || plan.ResourceChanges[0].Change.AfterSensitive["sandbox_env"] != true {
		t.Errorf("the JSON plan does not list sandbox_env as sensitive:\n%s", planJSON)
	} else if env, _ := plan.ResourceChanges[0].Change.After["sandbox_env"].(map[string]any); env["API_TOKEN"] != sensitiveToken {
		t.Errorf("the JSON plan's sandbox_env = %v; every CLI prints a sensitive value there in clear, this one does not", env)
	}

	c.mustRun("apply", "-no-color", "-input=false", "tfplan")
	if out := c.mustRun("show", "-no-color"); !masked.MatchString(out) {
		t.Errorf("show does not mask sandbox_env:\n%s", out)
	}
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Values          map[string]any `json:"values"`
					SensitiveValues map[string]any `json:"sensitive_values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	stateJSON := c.jsonOf(&state, "show", "-json")
	if r := state.Values.RootModule.Resources; len(r) != 1 || r[0].SensitiveValues["sandbox_env"] != true {
		t.Errorf("the JSON state does not list sandbox_env as sensitive:\n%s", stateJSON)
	}

	// An output of it must say it is sensitive, as one of the variable itself must.
	output := `
output "env" {
  value = sandbox_template.py.sandbox_env
}
`
	c.write("main.tf", template+output)
	out, err := c.run("plan", "-no-color", "-input=false")
	if err == nil || !strings.Contains(out, "Output refers to sensitive values") {
		t.Errorf("an output of sandbox_env without sensitive = true must be refused: %v\n%s", err, out)
	}
	c.noToken("the refused plan", out)
	c.write("main.tf", template+strings.Replace(output, "value =", "sensitive = true\n  value     =", 1))
	c.mustRun("apply", "-no-color", "-input=false", "-auto-approve")
	if out := c.mustRun("output", "-no-color"); !strings.Contains(out, "env = <sensitive>") {
		t.Errorf("the output is not masked:\n%s", out)
	}
}

// jsonOf runs a CLI command that prints JSON, decodes it into v and returns it.
func (c *cli) jsonOf(v any, args ...string) string {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	out = out[strings.Index(out, "{"):] // a warning may come first
	if err := json.NewDecoder(strings.NewReader(out)).Decode(v); err != nil {
		c.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
