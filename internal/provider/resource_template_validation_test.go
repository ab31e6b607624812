package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccTemplateRejectsBadConfigAtPlan checks that each invalid configuration fails at plan time
// with a diagnostic naming the attribute at fault, before any request reaches the backend.
func TestAccTemplateRejectsBadConfigAtPlan(t *testing.T) {
	emu := newE2B(t)
	tests := []struct {
		name   string
		body   string
		errors string
	}{
		{"unknown backend", `backend = "modal"
  template_id = "py"
  image = "python"`, `(?s)Attribute backend value must be one of`},
		{"upper-case template_id", `backend = "e2b"
  template_id = "Py"
  image = "python"`, `(?s)Invalid template_id.*"Py" is not valid for e2b`},
		{"bad image reference", `backend = "e2b"
  template_id = "py"
  image = "Python:3.12"`, `(?s)Invalid image.*image = "Python:3.12".*image: "Python:3.12" is not a valid image reference`},
		{"no image", `backend = "e2b"
  template_id = "py"`, `(?s)Invalid image.*image: is required: set one of image, base_template, dockerfile`},
		{"image and base_template", `backend = "e2b"
  template_id = "py"
  image = "python"
  base_template = "base"`, `(?s)Invalid base_template.*base_template = "base".*set exactly one of image, base_template,\s+dockerfile, got image\s+and base_template`},
		{"cpu_count below 1", `backend = "e2b"
  template_id = "py"
  image = "python"
  cpu_count = 0`, `(?s)Invalid Attribute Value.*cpu_count = 0.*value must be at least 1, got: 0`},
		{"cpu_count odd", `backend = "e2b"
  template_id = "py"
  image = "python"
  cpu_count = 3`, `(?s)Invalid cpu_count.*cpu_count = 3.*1 or an even number.*got 3`},
		{"cpu_count above 32", `backend = "e2b"
  template_id = "py"
  image = "python"
  cpu_count = 64`, `(?s)Invalid cpu_count.*between 1 and 32, got 64`},
		{"memory_mb below 128", `backend = "e2b"
  template_id = "py"
  image = "python"
  memory_mb = 64`, `(?s)Invalid memory_mb.*at least 128, got 64`},
		{"memory_mb odd", `backend = "e2b"
  template_id = "py"
  image = "python"
  memory_mb = 1025`, `(?s)Invalid memory_mb.*even number of MiB, got 1025`},
		{"base_template with ready_cmd alone", `backend = "e2b"
  template_id = "py"
  base_template = "code-interpreter-v1"
  ready_cmd = "true"`, `(?s)Invalid ready_cmd.*ready_cmd = "true".*with base_template, set start_cmd and ready_cmd both\s+or\s+neither`},
		{"aws without region", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { aws = { access_key_id = "AKID", secret_access_key = "s" } }`, `(?s)Incorrect attribute value type|attribute "region" is required`},
		{"two auth kinds", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = {
    basic = { username = "u", password = "p" }
    gcp   = { service_account_json = "/keys/sa.json" }
  }`, `(?s)registry_auth needs exactly one credential kind.*\d+:\s+registry_auth = \{.*registry_auth.gcp; got basic\s+and\s+gcp`},
		{"basic without password", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { basic = { username = "u" } }`, `(?s)registry_auth.basic needs exactly one password.*\d+:\s+registry_auth = \{ basic.*got neither`},
		{"malformed gcp key", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { gcp = { service_account_json = "{\"type\": \"service_account\"," } }`, `(?s)Invalid registry_auth.gcp.service_account_json.*registry_auth = \{ gcp.*not valid JSON`},
		{"registry_auth without image", `backend = "e2b"
  template_id = "py"
  base_template = "base"
  registry_auth = { basic = { username = "u", password = "p" } }`, `(?s)Invalid registry_auth.*registry_auth = \{ basic.*only applies to image; set image or remove registry_auth`},
		{"opensandbox with only a dockerfile", `backend = "opensandbox"
  template_id = "py"
  dockerfile = "FROM python"`, `(?s)Invalid dockerfile.*dockerfile = "FROM python".*the OpenSandbox backend does not build from dockerfile.*set\s+image`},
		{"multi-line package", `backend = "e2b"
  template_id = "py"
  image = "python"
  packages = ["numpy\nrm -rf /"]`, `(?s)Invalid packages\[0\].*one line of printable characters`},
		{"empty package", `backend = "e2b"
  template_id = "py"
  image = "python"
  packages = [""]`, `(?s)Invalid packages\[0\].*must not be empty`},
		{"whitespace-only package", `backend = "e2b"
  template_id = "py"
  image = "python"
  packages = ["numpy", "  "]`, `(?s)Invalid packages\[1\].*must not be empty`},
		{"shell after a package", `backend = "e2b"
  template_id = "py"
  image = "python"
  packages = ["numpy; rm -rf /"]`, `(?s)Invalid packages\[0\].*invalid environment marker`},
		{"pip option as a package", `backend = "e2b"
  template_id = "py"
  image = "python"
  packages = ["pandas", "--index-url=http://evil"]`, `(?s)Invalid packages\[1\].*pip\s+reads\s+as\s+one\s+of\s+its\s+own\s+options`},
		{"requirements file as a package", `backend = "opensandbox"
  template_id = "py"
  image = "python"
  packages = ["-r /etc/passwd"]`, `(?s)Invalid packages\[0\].*starts with "-"`},
		{"template_id too long", `backend = "e2b"
  template_id = "` + strings.Repeat("a", 129) + `"
  image = "python"`, `(?s)Invalid template_id`},
		{"password and password_wo both", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { basic = { username = "u", password = "p", password_wo = "q" } }`, `(?s)registry_auth.basic needs exactly one password.*got both`},
		{"empty registry_auth", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = {}`, `(?s)registry_auth needs exactly one credential kind.*got none`},
		{"gcp key of the wrong type", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { gcp = { service_account_json = "{\"type\": \"authorized_user\"}" } }`, `(?s)Invalid registry_auth.gcp.service_account_json.*"type" must be "service_account", got\s+"authorized_user"`},
		{"empty aws access key id", `backend = "e2b"
  template_id = "py"
  image = "python"
  registry_auth = { aws = { access_key_id = "", secret_access_key = "s", region = "us-east-1" } }`, `(?s)Invalid registry_auth.aws.access_key_id.*registry_auth.aws.access_key_id: must not be empty`},
		{"invalid timeout", `backend = "e2b"
  template_id = "py"
  image = "python"
  timeouts = { create = "ten minutes" }`, `(?s)Invalid timeouts.create.*timeouts.create must be a duration such as "30m"`},
		{"negative timeout", `backend = "e2b"
  template_id = "py"
  image = "python"
  timeouts = { update = "-5m" }`, `(?s)Invalid timeouts.update.*must be positive, got "-5m"`},
		{"dockerfile with COPY", `backend = "e2b"
  template_id = "py"
  dockerfile = "FROM python:3.12\nCOPY . /app"`, `(?s)Invalid dockerfile.*dockerfile = .*COPY needs files from a build context`},
		{"dockerfile and image", `backend = "e2b"
  template_id = "py"
  image = "python"
  dockerfile = "FROM python"`, `(?s)Invalid dockerfile.*dockerfile = "FROM python".*got image\s+and\s+dockerfile`},
		{"bedrock id shape", `backend = "bedrock"
  template_id = "not-an-interpreter-id"`, `(?s)Invalid template_id.*code\s+interpreter\s+id`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: protoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      e2bProvider(emu) + "resource \"sandbox_template\" \"py\" {\n  " + tt.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: expectError(tt.errors),
				}},
			})
		})
	}
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("invalid configurations sent %d requests to the backend, want 0", n)
	}
}

func TestAccTemplateUnconfiguredBackendFailsAtPlan(t *testing.T) {
	newE2B(t) // clears E2B_* from the environment
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "sandbox" {}

resource "sandbox_template" "py" {
  backend     = "e2b"
  template_id = "py"
  image       = "python:3.12"
}`,
			PlanOnly:    true,
			ExpectError: expectError(`(?s)Backend not configured.*set e2b.api_key in the provider\s+block or the\s+E2B_API_KEY\s+environment\s+variable`),
		}},
	})
}
