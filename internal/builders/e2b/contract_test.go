package e2b

import (
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestContractEveryCall sends every call the builder makes, through faults, a failed build, a
// lookup and deletes, past E2B's published spec.
func TestContractEveryCall(t *testing.T) {
	v := e2bemu.NewContractValidator(t)
	emu := newEmulator(t)
	b := newTestBuilder(t, emu, func(c *Config) { c.HTTPClient = v.Client() })
	auth := &builders.AWSAuth{AccessKeyID: "AKIAEXAMPLE", SecretAccessKey: builders.NewSecret("aws-secret"), Region: "us-east-1"}

	recordWaits(b) // no real sleeping through Retry-After
	emu.SetFaults(e2bemu.Faults{Rate: 0.5, Seed: 11, Status: []int{500, 503, 429}})
	content, minFree := "x = 1\n", 2048
	spec := builders.TemplateSpec{TemplateID: "contract", Image: "123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1",
		RegistryAuth: auth, Packages: []string{"numpy"}, StartCmd: ptr(""), MinFreeDiskMB: &minFree,
		Steps: []builders.BuildStep{{Env: map[string]string{"A": "1"}}, {File: &builders.FileStep{Content: &content, Destination: "/app/x.py"}, Force: true}}}
	if got := builders.Ensure(t.Context(), b, spec, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	emu.SetFaults(e2bemu.Faults{})
	emu.FailBuild("broken", "pip install exited with code 1")
	if got := builders.Ensure(t.Context(), b, fromBaseTemplate("broken", "contract"), builders.Observer{}); got.Status != builders.StatusFailed {
		t.Fatalf("failing Ensure = %+v", got)
	}
	for _, id := range []string{"contract", "contract", "broken"} { // the second delete finds nothing
		if err := b.Delete(t.Context(), id); err != nil {
			t.Fatalf("Delete(%s): %v", id, err)
		}
	}
	if usable, err := b.IsUsable(t.Context(), "contract"); err != nil || usable {
		t.Errorf("IsUsable after delete = %v, %v", usable, err)
	}

	for _, op := range []string{"POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}",
		"GET /templates/{templateID}/builds/{buildID}/status", "GET /templates/aliases/{alias}",
		"GET /templates/{templateID}", "DELETE /templates/{templateID}", "GET /templates/{templateID}/files/{hash}"} {
		if v.Seen(op) == 0 {
			t.Errorf("%s was never validated", op)
		}
	}
	if n := emu.InjectedFaults(); n == 0 {
		t.Error("no fault was injected")
	}
	if got := v.Violations(); len(got) != 0 {
		t.Errorf("violations: %q", got)
	}
}
