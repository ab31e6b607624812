package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Issue 23: text a server writes about a build (OpenSandbox's sandbox status.message, E2B's build
// failure reason and log lines) that quotes a secret, re-serialised as some servers do (`\/`
// escapes, HTML escaping, base64 of user:password), reaches neither the CLI's output nor state.

// echoedCredentials is a message quoting username and password in the encodings servers use.
func echoedCredentials(username, password string) string {
	quoted, _ := json.Marshal(map[string]string{"username": username, "password": password})
	return fmt.Sprintf("registry said %s; Authorization: Basic %s; page: <p>%s</p>",
		strings.ReplaceAll(string(quoted), "/", `\/`), base64.StdEncoding.EncodeToString([]byte(username+":"+password)), html.EscapeString(password))
}

// failingStatusFront is a proxy before an OpenSandbox emulator that, while armed, reports every
// sandbox Failed with a status.message quoting the registry login of the create before it.
func failingStatusFront(t *testing.T, osb *opensandboxemu.Server) (string, *atomic.Bool) {
	t.Helper()
	target, err := url.Parse(osb.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var armed atomic.Bool
	var mu sync.Mutex
	var login struct{ Username, Password string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, "/v1")
		switch {
		case r.Method == http.MethodPost && path == "/sandboxes":
			var create struct {
				Image struct {
					Auth struct{ Username, Password string } `json:"auth"`
				} `json:"image"`
			}
			body, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(body, &create)
			mu.Lock()
			login = create.Image.Auth
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		case armed.Load() && r.Method == http.MethodGet && strings.HasPrefix(path, "/sandboxes/") && strings.Count(path, "/") == 2:
			mu.Lock()
			message := "Failed to pull image: " + echoedCredentials(login.Username, login.Password)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"id": strings.TrimPrefix(path, "/sandboxes/"),
				"status": map[string]string{"state": "Failed", "reason": "ErrImagePull", "message": message}})
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &armed
}

// statusEchoCase is one kind of registry login, and the secrets of it that must not come back.
type statusEchoCase struct {
	image, auth, providerExtra string
	secrets                    func() []string
}

// runStatusEcho builds once, then rebuilds with the proxy armed: the rebuild fails with the
// echoing status.message, which must reach the CLI's error output and state only scrubbed; the
// next plan (the proxy disarmed) rebuilds from a prior state holding the scrubbed failure.
func runStatusEcho(t *testing.T, c statusEchoCase) {
	// The image is declared to have Python, so the first build's package install succeeds
	// (images without it fail at pip, as a real image would).
	osb := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: testOpenSandboxAPIKey,
		Images: map[string]sandboxos.Declaration{c.image: {Programs: []string{"python3", "pip"}}}})
	domain, armed := failingStatusFront(t, osb)
	config := func(packages string) string {
		return fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = %q
  }
%s
}

resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
  image       = %q
  start_cmd   = ""
  packages    = [%s]
  registry_auth = {
    %s
  }
}
`, domain, testOpenSandboxAPIKey, c.providerExtra, c.image, packages, c.auth)
	}
	var failures atomic.Int32
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		ErrorCheck: func(err error) error { // the armed rebuild's failure, as the CLI printed it
			failures.Add(1)
			if !strings.Contains(err.Error(), "Failed to pull image") {
				return fmt.Errorf("want the rebuild to fail with the echoing status.message, got: %w", err)
			}
			if form := leakedForm(err.Error(), c.secrets()); form != "" {
				return fmt.Errorf("the CLI's error output holds a secret (%q…)", form[:4])
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config(`"numpy"`)},
			{PreConfig: func() { armed.Store(true) }, Config: config(`"numpy", "pandas"`)},
			{
				PreConfig: func() { armed.Store(false) },
				Config:    config(`"numpy", "pandas"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planHoldsOnly{marker: "Failed to pull image", secrets: c.secrets, drop: configAndSecrets},
				}},
				Check: stateHoldsNoForms(c.secrets, false),
			},
		},
	})
	if !t.Skipped() && failures.Load() != 1 {
		t.Fatalf("%d failed applies, want the armed rebuild's only", failures.Load())
	}
}

func TestAccOpenSandboxStatusMessageBasicPassword(t *testing.T) {
	const password = "osb/status-pä&ss<word>"
	runStatusEcho(t, statusEchoCase{image: "registry.example.com/team/py:1",
		auth:    fmt.Sprintf("basic = {\n      username = \"robot\"\n      password = %q\n    }", password),
		secrets: func() []string { return []string{password, testOpenSandboxAPIKey} }})
}

func TestAccOpenSandboxStatusMessageECRPassword(t *testing.T) {
	const ecrToken = "osb-status-ecr/token+pw"
	aws := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: sinkAWSKeyID, SecretAccessKey: sinkAWSSecret})
	aws.IssueToken("AWS", ecrToken)
	runStatusEcho(t, statusEchoCase{image: sinkECRHost + "/ds:1.4", providerExtra: ecrEndpoint(aws),
		auth: fmt.Sprintf("aws = {\n      access_key_id = %q\n      secret_access_key = %q\n      region = \"eu-west-1\"\n    }",
			sinkAWSKeyID, sinkAWSSecret),
		secrets: func() []string { return []string{ecrToken, sinkAWSSecret, testOpenSandboxAPIKey} }})
}

func TestAccOpenSandboxStatusMessageGoogleToken(t *testing.T) {
	google := googleemu.NewTestServer(t)
	key := google.ServiceAccountJSON(t)
	runStatusEcho(t, statusEchoCase{image: sinkGoogleHost + "/team/images/py:1",
		auth: fmt.Sprintf("gcp = {\n      service_account_json = %q\n    }", key),
		secrets: func() []string {
			secrets := append(pemLines(googleemu.KeyField(t, key, "private_key")), testOpenSandboxAPIKey)
			for _, issued := range google.Issued() {
				secrets = append(secrets, issued.AccessToken)
			}
			return secrets
		}})
}

// TestAccE2BBuildFailureScrubsTheAPIKey: a build failure reason (and the log line E2B writes for
// it) quoting the E2B API key reaches the CLI's output and state scrubbed.
func TestAccE2BBuildFailureScrubsTheAPIKey(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	emu.FailBuild("py", "Failed to pull image: "+echoedCredentials("api", testE2BAPIKey))
	config := e2bTemplate(emu, "  image = \"python:3.12\"\n  start_cmd = \"\"\n")
	secrets := func() []string { return []string{testE2BAPIKey} }
	var failures atomic.Int32
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		ErrorCheck: func(err error) error {
			failures.Add(1)
			if !strings.Contains(err.Error(), "Failed to pull image") {
				return fmt.Errorf("want the build to fail with the echoing reason, got: %w", err)
			}
			if form := leakedForm(err.Error(), secrets()); form != "" {
				return fmt.Errorf("the CLI's error output holds the API key (%q…)", form[:4])
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: config},
			{
				Config: config, // the failure is spent: the tainted template is built again
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					planHoldsOnly{marker: "Failed to pull image", secrets: secrets, drop: configAndSecrets, failedCreate: true},
				}},
				Check: stateHoldsNoForms(secrets, false),
			},
		},
	})
	if failures.Load() != 1 {
		t.Fatalf("%d failed applies, want the first only", failures.Load())
	}
}

// configAndSecrets are the plan's keys that hold secrets by design: the configuration, the
// variables and registry_auth.
var configAndSecrets = []string{"configuration", "variables", "registry_auth"}

// planHoldsOnly checks `terraform show -json` of the saved plan, prior state included: it holds
// marker (so something was checked; no marker: nothing to find) and no form of the secrets, the
// keys in drop (which hold them by design) left out. The failure of a create is in the prior state
// only where the CLI keeps failed creates (keepsFailedCreates).
type planHoldsOnly struct {
	marker       string
	secrets      func() []string
	drop         []string
	failedCreate bool
}

func (c planHoldsOnly) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	text, err := planText(req.Plan, c.drop...)
	switch {
	case err != nil:
		resp.Error = err
	case c.marker != "" && (keepsFailedCreates(req.Plan) || !c.failedCreate) && !strings.Contains(text, c.marker):
		resp.Error = fmt.Errorf("the saved plan's prior state does not hold %q: nothing was checked", c.marker)
	case leakedForm(text, c.secrets()) != "":
		resp.Error = fmt.Errorf("the saved plan holds a secret (%q…)", leakedForm(text, c.secrets())[:4])
	}
}
