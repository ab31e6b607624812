package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// withTraceLog sends the CLI's and the provider's logs, at TRACE, to a file the test reads after.
func withTraceLog(t *testing.T) (read func() string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG_PATH", path)
	return func() string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("reading the trace log: %v", err)
		}
		return string(b)
	}
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
	aws := newAWS(t)
	aws.SetCredentials("AKIATRACETEST0000001", awsSecret)
	aws.IssueToken("AWS", ecrToken)
	image := "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ds:1.4"
	osb := newOpenSandbox(t, opensandboxemu.Options{
		PrivateImages: map[string]opensandboxemu.ImageAuth{image: {Username: "AWS", Password: ecrToken}},
	})
	// The harness logs the configuration text itself, so secrets arrive the way a pipeline passes
	// them: as sensitive variables from the environment.
	t.Setenv("TF_VAR_aws_secret", awsSecret)
	t.Setenv("TF_VAR_osb_api_key", testOpenSandboxAPIKey)
	readLog := withTraceLog(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
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
