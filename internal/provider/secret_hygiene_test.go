package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// traceLogTest names, in a process withTraceLog started, the test it runs there.
const traceLogTest = "SANDBOX_TRACE_LOG_TEST"

// withTraceLog runs the test with the CLI's and the provider's logs, at TRACE, going to a file that
// read returns. The harness takes both from the environment (TF_LOG, TF_ACC_LOG_PATH), which a test
// running in parallel must not change, so the test runs again in a process of its own whose
// environment sets them; in the calling process withTraceLog reports that run's outcome as the
// test's and returns nil: the caller returns at once.
func withTraceLog(t *testing.T) (read func() string) {
	t.Helper()
	if os.Getenv(traceLogTest) == t.Name() {
		return func() string {
			b, err := os.ReadFile(os.Getenv("TF_ACC_LOG_PATH"))
			if err != nil {
				t.Fatalf("reading the trace log: %v", err)
			}
			return string(b)
		}
	}
	t.Parallel()
	var pattern []string
	for _, name := range strings.Split(t.Name(), "/") {
		pattern = append(pattern, "^"+regexp.QuoteMeta(name)+"$")
	}
	args := []string{"-test.run=" + strings.Join(pattern, "/"), "-test.count=1", "-test.v"}
	if deadline, ok := t.Deadline(); ok {
		args = append(args, "-test.timeout="+time.Until(deadline).String())
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TF_LOG=TRACE", "TF_ACC_LOG_PATH="+filepath.Join(t.TempDir(), "trace.log"), traceLogTest+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err != nil:
		t.Fatalf("the test, run with a trace log in a process of its own, failed: %v\n%s", err, out)
	case strings.Contains(string(out), "--- SKIP: "+t.Name()+" ("):
		t.Skipf("skipped in its own process:\n%s", out)
	case !strings.Contains(string(out), "--- PASS: "+t.Name()+" ("):
		t.Fatalf("the test did not run in its own process:\n%s", out)
	}
	return nil
}

func assertNoSecrets(t *testing.T, where, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s contains the secret %q", where, s[:4]+"…")
		}
	}
}

// TestAccSecretsStayOutOfTraceLogs runs a full apply/destroy on the client-side registry login path
// (an AWS key exchanged for an ECR token, then handed to OpenSandbox) with TF_LOG=trace, and checks
// that no secret appears in the logs or the state, although each of them was really used.
func TestAccSecretsStayOutOfTraceLogs(t *testing.T) {
	const (
		awsSecret = "trace-aws-secret-7Hq2"
		ecrToken  = "trace-ecr-token-Zp91"
	)
	readLog := withTraceLog(t)
	if readLog == nil {
		return
	}
	aws := newAWS(t)
	aws.SetCredentials("AKIATRACETEST0000001", awsSecret)
	aws.IssueToken("AWS", ecrToken)
	image := "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ds:1.4"
	osb := newOpenSandbox(t, opensandboxemu.Options{
		PrivateImages: map[string]opensandboxemu.ImageAuth{image: {Username: "AWS", Password: ecrToken}},
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			// The harness logs the configuration text itself, so secrets arrive the way a pipeline
			// passes them: as sensitive variables, from a variables file the harness does not log.
			ConfigVariables: config.Variables{"aws_secret": config.StringVariable(awsSecret), "osb_api_key": config.StringVariable(testOpenSandboxAPIKey)},
			Config: fmt.Sprintf(`
variable "aws_secret" {
  type      = string
  sensitive = true
}

variable "osb_api_key" {
  type      = string
  sensitive = true
}

provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = var.osb_api_key
  }
  aws {
    endpoints {
      ecr = %q
    }
  }
}

resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
  image       = %q
  start_cmd   = "" # an ordinary image: it has no code interpreter to start
  registry_auth = {
    aws = {
      access_key_id     = "AKIATRACETEST0000001"
      secret_access_key = var.aws_secret
      region            = "eu-west-1"
    }
  }
}
`, osb.URL, aws.URL, image),
			Check: func(s *terraform.State) error {
				if sb := osb.Sandboxes(); len(sb) != 1 || sb[0].Auth == nil || sb[0].Auth.Password != ecrToken {
					return fmt.Errorf("the ECR token must have reached the sandbox pull, got %+v", sb)
				}
				return stateHasNo(ecrToken, testOpenSandboxAPIKey)(s)
			},
		}},
	})
	log := readLog()
	if !strings.Contains(log, "sandbox_template") {
		t.Fatal("the trace log is empty: TF_ACC_LOG_PATH was not honoured, so nothing was checked")
	}
	assertNoSecrets(t, "the TRACE log", log, awsSecret, ecrToken, testOpenSandboxAPIKey)
}
