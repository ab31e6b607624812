package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// protoV6ProviderFactories serves the provider in-process to the real CLI named by TF_ACC_TERRAFORM_PATH.
var protoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"sandbox": providerserver.NewProtocol6WithError(New("test")()),
}

const testE2BAPIKey = "e2b_test_key_0123456789"

// newE2B starts an E2B emulator for one test and clears the environment the provider would
// otherwise fall back to, so only the HCL under test configures it.
func newE2B(t *testing.T) *e2bemu.Server {
	t.Helper()
	for _, env := range []string{"E2B_API_KEY", "E2B_DOMAIN", "E2B_API_URL"} {
		t.Setenv(env, "")
	}
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
