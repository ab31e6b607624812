package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

const testOpenSandboxAPIKey = "osb-test-key"

func newOpenSandbox(t *testing.T, opts opensandboxemu.Options) *opensandboxemu.Server {
	t.Helper()
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

// readySnapshots counts the Ready snapshots of template py.
func readySnapshots(osb *opensandboxemu.Server) int {
	n := 0
	for _, s := range osb.Snapshots() {
		if s.Name == "py" && s.State == opensandboxemu.SnapshotReady && !s.Deleted {
			n++
		}
	}
	return n
}

func TestAccTemplateOpenSandboxLifecycle(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := readySnapshots(osb); n != 0 {
				return fmt.Errorf("destroy left %d snapshots named py", n)
			}
			return nil
		},
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, nil, `
  image     = "python:3.12-slim"
  start_cmd = "" # the image has no code interpreter to start
  packages  = ["pandas==2.2.3"]
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_entrypoint"), stringList("tail", "-f", "/dev/null")),
				statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("template_ref"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"provider": knownvalue.StringExact("opensandbox"), "value": knownvalue.StringExact("py")})),
			},
			Check: resource.ComposeTestCheckFunc(builderSandboxesDeleted(osb), func(*terraform.State) error {
				if n := readySnapshots(osb); n != 1 {
					return fmt.Errorf("%d Ready snapshots named py, want 1", n)
				}
				if ep := osb.Sandboxes()[0].Entrypoint; !slices.Equal(ep, []string{"tail", "-f", "/dev/null"}) {
					return fmt.Errorf(`start_cmd = "" built with entrypoint %q, want the neutral one`, ep)
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
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: openSandboxConfig(osb, aws, fmt.Sprintf(`
  image     = %q
  start_cmd = ""
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
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      openSandboxConfig(osb, nil, `  image = "ghcr.io/org/missing:1"`),
			ExpectError: expectError(`Template build failed at stage IMAGE_PULL`),
		}},
	})
	// The Docker runtime pulls before it answers the create: no sandbox was made.
	if n := len(osb.Sandboxes()); n != 0 {
		t.Errorf("%d sandboxes after a failed pull", n)
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
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: openSandboxConfig(osb, nil, fmt.Sprintf(`
  image     = "europe-docker.pkg.dev/team/images/py:1"
  start_cmd = ""
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
				ImportStateVerifyIgnore: []string{"image", "start_cmd", "registry_auth", "timeouts", "status", "detail", "logs", "last_built_at", "sandbox_entrypoint"},
			},
		},
	})
}

func stringList(values ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = knownvalue.StringExact(v)
	}
	return knownvalue.ListExact(checks)
}

// words matches the words of a message however the CLI wraps its lines.
func words(message string) *regexp.Regexp {
	return regexp.MustCompile(strings.Join(strings.Fields(regexp.QuoteMeta(message)), `\s+`))
}

// Issue 11, problem 1: start_cmd unset means the code-interpreter entrypoint, which an ordinary
// image cannot run; it ends after the steps, and the error says what was used and what to set.
func TestAccTemplateOpenSandboxDefaultEntrypointOnAnOrdinaryImage(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      openSandboxConfig(osb, nil, `  image = "python:3.12-slim"`),
				ExpectError: words(`start_cmd is not set, so the start command is the default entrypoint /opt/code-interpreter/code-interpreter.sh`),
			},
			{ // the fix the error names
				Config: openSandboxConfig(osb, nil, `
  image     = "python:3.12-slim"
  start_cmd = ""
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(resourceName, tfjsonpath.New("status"), knownvalue.StringExact("SUCCESS")),
				},
			},
		},
	})
	if n := len(osb.Snapshots()); n != 1 {
		t.Errorf("%d snapshots, want only the working build's", n)
	}
}

// Issue 11, problem 2: a snapshot keeps no process. sandbox_entrypoint, known at plan, is the
// command the build started after the steps (detached, in a builder sandbox that runs the neutral
// entrypoint), which is what a consumer must pass to start the same process; a sandbox restored
// with it runs.
func TestAccTemplateOpenSandboxSandboxEntrypoint(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	started := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			sandboxes := osb.Sandboxes()
			builder := sandboxes[len(sandboxes)-1]
			last := builder.Commands[len(builder.Commands)-1]
			if !slices.Equal(builder.Entrypoint, opensandbox.NeutralEntrypoint) || last.Command != want || !last.Background {
				return fmt.Errorf("builder sandbox entrypoint %q, last command %+v; want the neutral entrypoint and %q started detached",
					builder.Entrypoint, last, want)
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: openSandboxConfig(osb, nil, `  image = "opensandbox/code-interpreter:v1.1.0"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_entrypoint"), stringList("/opt/code-interpreter/code-interpreter.sh")),
				}},
				Check: resource.ComposeTestCheckFunc(started("/opt/code-interpreter/code-interpreter.sh"),
					restoredSandboxRuns(osb, []string{"/opt/code-interpreter/code-interpreter.sh"}, nil)),
			},
			{
				Config: openSandboxConfig(osb, nil, `
  image     = "opensandbox/code-interpreter:v1.1.0"
  start_cmd = "python3 -m http.server 8000"
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(resourceName, tfjsonpath.New("sandbox_entrypoint"), stringList("sh", "-c", "python3 -m http.server 8000")),
				}},
				Check: resource.ComposeTestCheckFunc(started("sh -c 'python3 -m http.server 8000'"),
					restoredSandboxRuns(osb, []string{"sh", "-c", "python3 -m http.server 8000"}, nil)),
			},
		},
	})
}

// Issue 11, problem 3: two resources of one template_id in one configuration (built in parallel)
// both succeed and leave exactly one Ready snapshot.
func TestAccTemplateOpenSandboxSameNameTwice(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{CreatingPolls: 3})
	config := openSandboxConfig(osb, nil, `  image = "opensandbox/code-interpreter:v1.1.0"`) + `
resource "sandbox_template" "twin" {
  backend     = "opensandbox"
  template_id = "py"
  image       = "opensandbox/code-interpreter:v1.1.0"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(resourceName, "template_ref.value", "py"),
				resource.TestCheckResourceAttr("sandbox_template.twin", "template_ref.value", "py"),
				func(*terraform.State) error {
					if n := readySnapshots(osb); n != 1 {
						return fmt.Errorf("%d Ready snapshots named py, want 1", n)
					}
					return nil
				}),
		}},
	})
}

// Issue 11, problem 4: the builder sandbox's timeout stays within the server's cap, set in the
// provider; a cap below the API minimum fails at plan time on the setting, and one shorter than
// the build's timeout fails before any sandbox is made.
func TestAccTemplateOpenSandboxTimeoutCap(t *testing.T) {
	osb := newOpenSandbox(t, opensandboxemu.Options{MaxSandboxTimeoutSeconds: 1800})
	withCap := func(limit int, createTimeout string) string {
		config := openSandboxConfig(osb, nil, fmt.Sprintf(`
  image    = "opensandbox/code-interpreter:v1.1.0"
  timeouts = { create = %q }
`, createTimeout))
		return strings.Replace(config, "opensandbox {", fmt.Sprintf("opensandbox {\n    max_sandbox_timeout_seconds = %d", limit), 1)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: withCap(59, "20m"), PlanOnly: true, ExpectError: words(`max_sandbox_timeout_seconds`)},
			{Config: withCap(1800, "40m"), PlanOnly: true, ExpectError: expectError(`(?s)Build timeout longer than the server allows.*max_sandbox_timeout_seconds\s+=\s+1800`)}, // refused at plan: no sandbox
			{
				Config: withCap(1800, "25m"),
				Check: func(*terraform.State) error {
					sandboxes := osb.Sandboxes()
					if len(sandboxes) != 1 {
						return fmt.Errorf("%d sandboxes, want 1 (none for the refused build)", len(sandboxes))
					}
					if timeout := sandboxes[0].Timeout; timeout == nil || *timeout > 1800 {
						return fmt.Errorf("builder sandbox timeout %v, above the server's cap", timeout)
					}
					return nil
				},
			},
		},
	})
}
