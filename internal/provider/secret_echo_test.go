package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Issue 12 (1): a server echoing the request body in its error messages must not get a secret,
// in any encoding, into state, a saved plan, the CLI's output or a TF_LOG=trace log. Each test
// runs twice: with sensitive variables on every CLI (the registry secret is then in state by
// design, under registry_auth and nowhere else) and with ephemeral variables feeding the
// write-only attributes on CLIs >= 1.11 (no secret anywhere).

// echoCase is one backend and one kind of secret whose build fails with its body echoed.
type echoCase struct {
	// config is the whole configuration, and the values of the variables it declares with
	// declareVars, which hold its secrets.
	config func(t *testing.T, writeOnly bool) (string, config.Variables)
	// secrets lists every secret in play, looked up when checked (tokens are issued mid-run).
	secrets func() []string
	// failedInState: the template exists when the build fails, so the failure (with the echoed
	// message) is in state and in the next plan's prior state, where the CLI keeps failed creates.
	failedInState bool
}

// declareVars declares sensitive (ephemeral, for write-only use) variables and returns their
// values, which the harness passes in a variables file, so its own logging of the configuration
// holds none.
func declareVars(writeOnly bool, values map[string]string) (string, config.Variables) {
	var b strings.Builder
	vars := config.Variables{}
	for name, value := range values {
		vars[name] = config.StringVariable(value)
		ephemeral := ""
		if writeOnly {
			ephemeral = "\n  ephemeral = true"
		}
		fmt.Fprintf(&b, "variable %q {\n  type      = string\n  sensitive = true%s\n}\n\n", name, ephemeral)
	}
	return b.String(), vars
}

// registrySecret is the registry_auth attribute pair carrying a secret: the sensitive attribute,
// or the write-only one with its version.
func registrySecret(attr, variable string, writeOnly bool) string {
	if writeOnly {
		return fmt.Sprintf("%s_wo = var.%s\n      %s_wo_version = 1", attr, variable, attr)
	}
	return fmt.Sprintf("%s = var.%s", attr, variable)
}

func runSecretEcho(t *testing.T, c echoCase) {
	for _, writeOnly := range []bool{false, true} {
		name := "sensitive"
		if writeOnly {
			name = "write-only"
		}
		t.Run(name, func(t *testing.T) {
			var checks []tfversion.TerraformVersionCheck
			if writeOnly {
				checks = append(checks, tfversion.SkipBelow(tfversion.Version1_11_0))
			}
			readLog := withTraceLog(t)
			if readLog == nil {
				return
			}
			hcl, vars := c.config(t, writeOnly)
			var failures atomic.Int32
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				TerraformVersionChecks:   checks,
				ErrorCheck: func(err error) error { // the first apply's failure, as the CLI printed it
					if failures.Add(1) > 1 {
						return err
					}
					if !strings.Contains(err.Error(), "request body") {
						return fmt.Errorf("want the build to fail with the echoed request body, got: %w", err)
					}
					if form := leakedForm(err.Error(), c.secrets()); form != "" {
						return fmt.Errorf("the CLI's error output holds a secret (%q…)", form[:4])
					}
					return nil
				},
				Steps: []resource.TestStep{
					{Config: hcl, ConfigVariables: vars}, // fails: the server echoes the body
					{
						Config: hcl, ConfigVariables: vars, // the fault is spent: this one builds
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							savedPlan(c, writeOnly),
						}},
						Check: stateHoldsNoForms(c.secrets, writeOnly),
					},
				},
			})
			if t.Skipped() {
				return
			}
			if failures.Load() == 0 {
				t.Fatal("the first apply did not fail: the echo was never checked")
			}
			log := readLog()
			if !strings.Contains(log, "request body") {
				t.Error("the trace log does not hold the echoed message: nothing was checked there")
			}
			buildertest.AssertNoSecretForms(t, "the TRACE log", log, c.secrets()...)
		})
	}
}

// savedPlan checks the plan after the failed apply. With sensitive (not write-only) secrets, the
// variables and registry_auth hold them by design and are left out; everything else, detail and
// logs among it, must hold none.
func savedPlan(c echoCase, writeOnly bool) planHoldsOnly {
	check := planHoldsOnly{secrets: c.secrets, failedCreate: true, drop: []string{"registry_auth", "variables"}}
	if writeOnly {
		check.drop = nil
	}
	if c.failedInState {
		check.marker = "request body"
	}
	return check
}

// leakedForm returns the first form (buildertest.SecretForms) of a secret found in text.
func leakedForm(text string, secrets []string) string {
	for _, s := range secrets {
		for _, form := range buildertest.SecretForms(s) {
			if len(form) >= 4 && strings.Contains(text, form) {
				return form
			}
		}
	}
	return ""
}

// planText is a plan as JSON, without the object keys in drop at any depth.
func planText(plan any, drop ...string) (string, error) {
	raw, err := json.Marshal(plan)
	if err != nil {
		return "", err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	text, err := json.Marshal(without(v, drop...))
	return string(text), err
}

// without drops every object key named in keys, at any depth.
func without(v any, keys ...string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			drop := false
			for _, key := range keys {
				drop = drop || k == key
			}
			if drop {
				delete(v, k)
			} else {
				v[k] = without(e, keys...)
			}
		}
	case []any:
		for i, e := range v {
			v[i] = without(e, keys...)
		}
	}
	return v
}

// stateHoldsNoForms fails when an attribute in state holds a secret in any form; with sensitive
// secrets, registry_auth holds them by design and is left out.
func stateHoldsNoForms(secrets func() []string, writeOnly bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		for name, rs := range s.RootModule().Resources {
			for attr, v := range rs.Primary.Attributes {
				if !writeOnly && strings.HasPrefix(attr, "registry_auth") {
					continue
				}
				if form := leakedForm(v, secrets()); form != "" {
					return fmt.Errorf("%s.%s holds a secret (%q…)", name, attr, form[:4])
				}
			}
		}
		return nil
	}
}

// failStartBuildEchoed puts a proxy before the E2B emulator that has the emulator fail the first
// build start (the request carrying the registry credentials) with 400, its body echoed.
func failStartBuildEchoed(t *testing.T, emu *e2bemu.Server) string {
	t.Helper()
	emu.EchoRequestBodies(true)
	target, err := url.Parse(emu.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var armed atomic.Bool
	armed.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/builds/") && armed.CompareAndSwap(true, false) {
			emu.FailNext(1, http.StatusBadRequest)
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func e2bEchoConfig(apiURL string, writeOnly bool, auth, secretVar, secret string) (string, config.Variables) {
	declarations, vars := declareVars(writeOnly, map[string]string{"e2b_api_key": testE2BAPIKey, secretVar: secret})
	return declarations + fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url = %q
    api_key = var.e2b_api_key
  }
}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "europe-docker.pkg.dev/team/images/py:1" # a Google registry: the gcp case's key is for it
  start_cmd   = ""
  registry_auth = {
    %s
  }
}
`, apiURL, auth), vars
}

func TestAccSecretEchoE2BRegistryPassword(t *testing.T) {
	const password = `e2b-echo-pa"ss\<w&rd>/+=`
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			emu := newE2B(t)
			auth := fmt.Sprintf("basic = {\n      username = \"robot\"\n      %s\n    }", registrySecret("password", "registry_password", writeOnly))
			return e2bEchoConfig(failStartBuildEchoed(t, emu), writeOnly, auth, "registry_password", password)
		},
		secrets:       func() []string { return []string{password, testE2BAPIKey} },
		failedInState: true,
	})
}

// The key's private_key holds newlines, so the echoed JSON body carries it only JSON-escaped.
func TestAccSecretEchoE2BServiceAccountKey(t *testing.T) {
	key := googleemu.NewTestServer(t).ServiceAccountJSON(t)
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			emu := newE2B(t)
			auth := fmt.Sprintf("gcp = {\n      %s\n    }", registrySecret("service_account_json", "gcp_key", writeOnly))
			return e2bEchoConfig(failStartBuildEchoed(t, emu), writeOnly, auth, "gcp_key", key)
		},
		secrets: func() []string {
			return append(pemLines(googleemu.KeyField(t, key, "private_key")), key, testE2BAPIKey)
		},
		failedInState: true,
	})
}

// pemLines are a PEM key's base64 lines, each a secret a server may quote on its own.
func pemLines(pem string) []string {
	var lines []string
	for _, line := range strings.Split(pem, "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			lines = append(lines, line)
		}
	}
	return append(lines, pem)
}

// echoOpenSandbox is an OpenSandbox emulator whose first sandbox create (the request carrying the
// registry login) fails with its body echoed.
func echoOpenSandbox(t *testing.T) *opensandboxemu.Server {
	t.Helper()
	osb := newOpenSandbox(t, opensandboxemu.Options{})
	osb.InjectFault(opensandboxemu.Fault{Method: http.MethodPost, PathPrefix: "/sandboxes", Status: http.StatusBadRequest, Count: 1, EchoBody: true})
	return osb
}

// echoHeadersFront is a debugging proxy before the OpenSandbox emulator that answers the first
// sandbox create with a 502 quoting the request's headers (the API key among them) and its body.
func echoHeadersFront(t *testing.T, osb *opensandboxemu.Server) string {
	t.Helper()
	target, err := url.Parse(osb.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var armed atomic.Bool
	armed.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/sandboxes") || !armed.CompareAndSwap(true, false) {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var headers []string
		for name, values := range r.Header {
			headers = append(headers, name+": "+strings.Join(values, ","))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_ = json.NewEncoder(w).Encode(map[string]string{"code": "PROXY::BAD_GATEWAY",
			"message": "upstream failed; request headers: " + strings.Join(headers, "; ") + "; request body: " + string(body)})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func openSandboxEchoConfig(domain string, writeOnly bool, extraProvider, image, auth string, values map[string]string) (string, config.Variables) {
	values["osb_api_key"] = testOpenSandboxAPIKey
	declarations, vars := declareVars(writeOnly, values)
	return declarations + fmt.Sprintf(`
provider "sandbox" {
  opensandbox {
    domain  = %q
    api_key = var.osb_api_key
  }%s
}

resource "sandbox_template" "py" {
  backend     = "opensandbox"
  template_id = "py"
  image       = %q
  start_cmd   = ""
  registry_auth = {
    %s
  }
}
`, domain, extraProvider, image, auth), vars
}

func TestAccSecretEchoOpenSandboxRegistryPassword(t *testing.T) {
	const password = `osb-echo-pa"ss\<w&rd>/+=`
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			auth := fmt.Sprintf("basic = {\n      username = \"robot\"\n      %s\n    }", registrySecret("password", "registry_password", writeOnly))
			return openSandboxEchoConfig(echoOpenSandbox(t).URL, writeOnly, "", "registry.example.com/team/py:1", auth,
				map[string]string{"registry_password": password})
		},
		secrets: func() []string { return []string{password, testOpenSandboxAPIKey} },
	})
}

// The AWS key is exchanged client side for an ECR token, which the echoed create body carries.
func TestAccSecretEchoOpenSandboxECRToken(t *testing.T) {
	const (
		awsSecret = "echo-aws-secret/7Hq2+key"
		ecrToken  = "echo-ecr-token-Zp91<&>"
	)
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			aws := newAWS(t)
			aws.SetCredentials("AKIAECHOTEST00000001", awsSecret)
			aws.IssueToken("AWS", ecrToken)
			auth := fmt.Sprintf("aws = {\n      access_key_id = \"AKIAECHOTEST00000001\"\n      %s\n      region = \"eu-west-1\"\n    }",
				registrySecret("secret_access_key", "aws_secret", writeOnly))
			endpoints := fmt.Sprintf("\n  aws {\n    endpoints {\n      ecr = %q\n    }\n  }", aws.URL)
			return openSandboxEchoConfig(echoOpenSandbox(t).URL, writeOnly, endpoints, "123456789012.dkr.ecr.eu-west-1.amazonaws.com/ds:1.4", auth,
				map[string]string{"aws_secret": awsSecret})
		},
		secrets: func() []string { return []string{awsSecret, ecrToken, testOpenSandboxAPIKey} },
	})
}

// The service-account key is exchanged client side for a Google access token, which the echoed
// create body carries.
func TestAccSecretEchoOpenSandboxGoogleToken(t *testing.T) {
	google := googleemu.NewTestServer(t)
	key := google.ServiceAccountJSON(t)
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			auth := fmt.Sprintf("gcp = {\n      %s\n    }", registrySecret("service_account_json", "gcp_key", writeOnly))
			return openSandboxEchoConfig(echoOpenSandbox(t).URL, writeOnly, "", "europe-docker.pkg.dev/team/images/py:1", auth,
				map[string]string{"gcp_key": key})
		},
		secrets: func() []string {
			secrets := append(pemLines(googleemu.KeyField(t, key, "private_key")), key, testOpenSandboxAPIKey)
			for _, issued := range google.Issued() {
				secrets = append(secrets, issued.AccessToken)
			}
			return secrets
		},
	})
}

// A proxy quoting the request headers puts the OpenSandbox API key (a header, never in a body)
// into the error; the client scrubs it with the registry password.
func TestAccSecretEchoOpenSandboxAPIKey(t *testing.T) {
	const password = "osb-echo-header-password"
	runSecretEcho(t, echoCase{
		config: func(t *testing.T, writeOnly bool) (string, config.Variables) {
			auth := fmt.Sprintf("basic = {\n      username = \"robot\"\n      %s\n    }", registrySecret("password", "registry_password", writeOnly))
			return openSandboxEchoConfig(echoHeadersFront(t, newOpenSandbox(t, opensandboxemu.Options{})), writeOnly, "",
				"registry.example.com/team/py:1", auth, map[string]string{"registry_password": password})
		},
		secrets: func() []string { return []string{password, testOpenSandboxAPIKey} },
	})
}
