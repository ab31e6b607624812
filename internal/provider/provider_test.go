package provider

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// protoV6ProviderFactories serves the provider in-process to the real CLI named by TF_ACC_TERRAFORM_PATH,
// with an empty environment: only the HCL under test configures it, whatever the process's
// environment holds, and tests run in parallel (resource.ParallelTest), each against its own emulators.
var protoV6ProviderFactories = providerFactories(nil)

// providerFactories serves a provider whose settings fall back to env instead of the process's
// environment: how a test checks an environment fallback without touching the environment.
func providerFactories(env map[string]string) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"sandbox": providerserver.NewProtocol6WithError(newWithEnv("test", func(name string) string { return env[name] })()),
	}
}

const testE2BAPIKey = "e2b_test_key_0123456789"

// TestMain isolates the AWS SDK's default chain, which reads the process environment itself (not a
// provider setting), once for every test: no shared config files, no instance metadata, and the one
// key pair the tests' AWS emulators accept (newAWS).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "provider-test-aws")
	if err == nil {
		err = awsemu.IsolateSDKProcess(dir, map[string]string{"AWS_ACCESS_KEY_ID": testAWSKeyID, "AWS_SECRET_ACCESS_KEY": testAWSSecret})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "isolating the AWS SDK:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// newE2B starts an E2B emulator for one test.
func newE2B(t *testing.T) *e2bemu.Server {
	t.Helper()
	return e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
}

func e2bProvider(emu *e2bemu.Server) string {
	return fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url = %q
    api_key = %q
  }
}
`, emu.URL, testE2BAPIKey)
}

// stateHasNo fails when any attribute of any resource in state holds one of the values.
func stateHasNo(values ...string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		for name, rs := range s.RootModule().Resources {
			for attr, v := range rs.Primary.Attributes {
				for _, secret := range values {
					if strings.Contains(v, secret) {
						return fmt.Errorf("%s.%s holds a secret that must not be in state", name, attr)
					}
				}
			}
		}
		return nil
	}
}

func expectError(s string) *regexp.Regexp { return regexp.MustCompile(s) }
