package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// Issue 23: inputs no backend can take fail the plan on the attribute at fault (registry_auth for
// anything inside it: CLIs cannot point into an object literal), with the core's words, before
// any request.
func TestAccTemplateRejectsUnusableInputsAtPlan(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	ecr := `image = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4"`
	steps := []struct{ body, want string }{
		{ecr + `
  registry_auth = { aws = { access_key_id = "AKID", secret_access_key = "s", region = "eu-west-1" } }`,
			`(?s)Invalid registry_auth.aws.region.*registry_auth = \{.*` + words(`registry_auth.aws.region: is "eu-west-1" but image is in the ECR registry 123456789012.dkr.ecr.us-east-1.amazonaws.com, in "us-east-1"; ECR tokens are regional: set region = "us-east-1".`).String()},
		{ecr + `
  registry_auth = { aws = { access_key_id = "AKID", secret_access_key = "s", region = "virginia" } }`,
			`(?s)Invalid registry_auth.aws.region.*` + words(`registry_auth.aws.region: "virginia" is not an AWS region (such as "us-east-1").`).String()},
		{`image = "registry.example.com/team/py:1"
  registry_auth = { basic = { username = "ci", password = "   " } }`,
			`(?s)Invalid registry_auth.basic.password.*` + words(`registry_auth.basic.password: must not be blank (only whitespace).`).String()},
		{`image = "registry.example.com/team/py:1"
  registry_auth = { basic = { username = "ci\nbot", password = "pw" } }`,
			`(?s)Invalid registry_auth.basic.username.*` + words(`registry_auth.basic.username: must not contain control characters such as a newline.`).String()},
		{`image = "python:3.12"
  start_cmd = "python -m app\u0000--debug"`,
			`(?s)Invalid start_cmd.*start_cmd = .*` + words(`start_cmd: must not contain a NUL character: a command reaches the sandbox as a C string, which ends at the first one.`).String()},
		{`image = "python:3.12"
  memory_mb = 1000000000000`,
			`(?s)Invalid memory_mb.*memory_mb = 1000000000000.*` + words(`memory_mb: must be at most 2147483647 (build APIs carry it as a 32-bit integer), got 1000000000000.`).String()},
	}
	var testSteps []resource.TestStep
	for _, s := range steps {
		testSteps = append(testSteps, resource.TestStep{
			Config:      e2bProvider(emu) + fmt.Sprintf("resource \"sandbox_template\" \"py\" {\n  backend = \"e2b\"\n  template_id = \"py\"\n  %s\n}\n", s.body),
			PlanOnly:    true,
			ExpectError: expectError(s.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: protoV6ProviderFactories, Steps: testSteps})
	if n := len(emu.Requests()); n != 0 {
		t.Errorf("unusable inputs sent %d requests to E2B, want 0", n)
	}
}
