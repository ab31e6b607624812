package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

const testOpenSandboxAPIKey = "osb-test-key"

func newOpenSandbox(t *testing.T, opts opensandboxemu.Options) *opensandboxemu.Server {
	t.Helper()
	for _, env := range []string{"OPEN_SANDBOX_API_KEY", "OPEN_SANDBOX_DOMAIN", "OPEN_SANDBOX_PROTOCOL"} {
		t.Setenv(env, "")
	}
	opts.APIKey = testOpenSandboxAPIKey
	return opensandboxemu.NewTestServer(t, opts)
}

func openSandboxConfig(osb *opensandboxemu.Server, aws *awsemu.Emulator, body string) string {
	awsBlock := ""
	if aws != nil {
		awsBlock = fmt.Sprintf(`
  aws {
    endpoints {
      ecr = %q
    }
  }`, aws.URL)
	}
	return fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = %q
  }%s
}

resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
%s
}
`, osb.URL, testOpenSandboxAPIKey, awsBlock, body)
}

// builderSandboxesDeleted checks the builder cleaned up every sandbox it started.
func builderSandboxesDeleted(osb *opensandboxemu.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sandboxes := osb.Sandboxes()
		if len(sandboxes) != 1 {
			return fmt.Errorf("%d builder sandboxes started, want 1", len(sandboxes))
		}
		for _, sb := range sandboxes {
			if !sb.Deleted {
				return fmt.Errorf("builder sandbox %s was left running", sb.ID)
			}
		}
		return nil
	}
}

func readySnapshots(osb *opensandboxemu.Server, name string) int {
	n := 0
	for _, s := range osb.Snapshots() {
		if s.Name == name && s.State == opensandboxemu.SnapshotReady && !s.Deleted {
			n++
		}
	}
	return n
}

func TestAccTemplateOpenSandboxLifecycle(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := readySnapshots(osb, "py"); n != 0 {
				return fmt.Errorf("destroy left %d snapshots named py", n)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, nil, `
  image    = "python:3.12-slim"
  packages = ["pandas==2.2.3"]
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"provider": knownvalue.StringExact("opensandbox"), "value": knownvalue.StringExact("py")})),
			},
			Check: resource.ComposeTestCheckFunc(builderSandboxesDeleted(osb), func(*terraform.State) error {
				if n := readySnapshots(osb, "py"); n != 1 {
					return fmt.Errorf("%d Ready snapshots named py, want 1", n)
				}
				return nil
			}),
		}},
	})
}

// TestAccTemplateOpenSandboxECRLogin: AWS registry credentials become an ECR login client side, and
// exactly that login reaches the sandbox that pulls the image.
func TestAccTemplateOpenSandboxECRLogin(t *testing.T) {
	aws := newAWS(t)
	aws.SetCredentials("AKIAREGISTRYPULL0001", "registry-pull-secret")
	aws.IssueToken("AWS", "ecr-token-password")
	image := "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ds:1.4"
	osb := newOpenSandbox(t, opensandboxemu.Options{
		PrivateImages: map[string]opensandboxemu.ImageAuth{image: {Username: "AWS", Password: "ecr-token-password"}},
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, aws, fmt.Sprintf(`
  image = %q
  registry_auth = {
    aws = {
      access_key_id     = "AKIAREGISTRYPULL0001"
      secret_access_key = "registry-pull-secret"
      region            = "eu-west-1"
    }
  }
`, image)),
			Check: resource.ComposeTestCheckFunc(builderSandboxesDeleted(osb), func(*terraform.State) error {
				sb := osb.Sandboxes()[0]
				if sb.Auth == nil || *sb.Auth != (opensandboxemu.ImageAuth{Username: "AWS", Password: "ecr-token-password"}) {
					return fmt.Errorf("sandbox pulled with %+v, want the ECR login", sb.Auth)
				}
				return nil
			}),
		}},
	})
}

func TestAccTemplateOpenSandboxPullFailure(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{UnpullableImages: []string{"ghcr.io/org/missing:1"}})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      openSandboxConfig(osb, nil, `  image = "ghcr.io/org/missing:1"`),
			ExpectError: expectError(`Template build failed at stage IMAGE_PULL`),
		}},
	})
	if err := builderSandboxesDeleted(osb)(nil); err != nil {
		t.Error(err)
	}
}

// TestAccTemplateOpenSandboxGCPLogin: a service-account key file becomes a Google access token
// client side, which reaches the sandbox pull as user oauth2accesstoken; the template imports back.
func TestAccTemplateOpenSandboxGCPLogin(t *testing.T) {
	google := googleemu.NewTestServer(t)
	keyFile := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(keyFile, []byte(google.ServiceAccountJSON(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: openSandboxConfig(osb, nil, fmt.Sprintf(`
  image = "europe-docker.pkg.dev/team/images/py:1"
  registry_auth = {
    gcp = {
      service_account_json = %q
    }
  }
`, keyFile)),
				Check: resource.ComposeTestCheckFunc(builderSandboxesDeleted(osb), func(s *terraform.State) error {
					issued := google.Issued()
					if len(issued) != 1 {
						return fmt.Errorf("%d access tokens issued, want 1", len(issued))
					}
					want := opensandboxemu.ImageAuth{Username: "oauth2accesstoken", Password: issued[0].AccessToken}
					if sb := osb.Sandboxes()[0]; sb.Auth == nil || *sb.Auth != want {
						return fmt.Errorf("sandbox pulled with %+v, want the Google access token", sb.Auth)
					}
					return stateHasNo(issued[0].AccessToken)(s)
				}),
			},
			{
				ResourceName:            resourceName,
				ImportState:             true,
				ImportStateId:           "opensandbox/py",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"image", "registry_auth", "timeouts", "status", "detail", "logs", "last_built_at"},
			},
		},
	})
}
