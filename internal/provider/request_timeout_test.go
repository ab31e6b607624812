package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// stalled is far longer than any test runs: a request that waits for it never gets its answer.
const stalled = time.Hour

func e2bProviderWithTimeout(emu *e2bemu.Server, timeout string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  request_timeout = %q
  e2b {
    api_url = %q
    api_key = %q
  }
}
`, timeout, emu.URL, testE2BAPIKey)
}

// TestAccRequestTimeoutBoundsRefresh: an API that stops answering makes the refresh of plan fail,
// naming the template and the backend, instead of hanging.
func TestAccRequestTimeoutBoundsRefresh(t *testing.T) {
	emu := newE2B(t)
	config := e2bProviderWithTimeout(emu, "1s") + `
resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12-slim"
  start_cmd   = ""
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:   func() { emu.SetFaults(e2bemu.Faults{Latency: stalled}) },
				Config:      config,
				PlanOnly:    true,
				ExpectError: expectError(`reading template "py" on e2b: no answer within\s+request_timeout \(1s\)`),
			},
			{PreConfig: func() { emu.SetFaults(e2bemu.Faults{}) }, Config: config}, // so that destroy can run
		},
	})
}

// TestAccRequestTimeoutBoundsDataSource: the data source's lookup is bounded the same way.
func TestAccRequestTimeoutBoundsDataSource(t *testing.T) {
	emu := newE2B(t)
	emu.SeedReadyTemplate("shared")
	emu.SetFaults(e2bemu.Faults{Latency: stalled})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bProviderWithTimeout(emu, "1s") + `
data "sandbox_template" "shared" {
  backend     = "e2b"
  template_id = "shared"
}`,
			ExpectError: expectError(`reading template "shared" on e2b: no answer within\s+request_timeout`),
		}},
	})
}

// TestAccRequestTimeoutBoundsOpenSandbox: an OpenSandbox server that accepts requests and never
// answers them fails the data source's lookup the same way.
func TestAccRequestTimeoutBoundsOpenSandbox(t *testing.T) {
	newOpenSandbox(t, opensandboxemu.Options{}) // clears the environment fallbacks
	hung := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "sandbox" {
  request_timeout = "1s"
  opensandbox {
    domain = %q
  }
}

data "sandbox_template" "shared" {
  backend     = "opensandbox"
  template_id = "shared"
}`, hung.URL),
			ExpectError: expectError(`reading template "shared" on opensandbox: no answer within\s+request_timeout`),
		}},
	})
}

func TestAccRequestTimeoutMustBeADuration(t *testing.T) {
	emu := newE2B(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: e2bProviderWithTimeout(emu, "banana") + `
data "sandbox_template" "shared" {
  backend     = "e2b"
  template_id = "shared"
}`,
			ExpectError: expectError(`Invalid request_timeout`),
		}},
	})
}
