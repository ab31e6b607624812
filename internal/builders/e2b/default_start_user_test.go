package e2b

import (
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestDefaultStartAfterAUserStep: the default start command (sudo ...) runs as the last user step's
// user, and a user step gives no sudo, so that spec is refused on the step, saying what to set; the
// fixes it names validate, and each builds on the emulator, where the refused spec fails at finalize.
func TestDefaultStartAfterAUserStep(t *testing.T) {
	user := func(name string) builders.BuildStep { return builders.BuildStep{User: &name} }
	run := builders.BuildStep{Run: &builders.RunStep{Command: "id -u"}}
	for _, tt := range []struct {
		name      string
		steps     []builders.BuildStep
		startCmd  *string
		refusedAt string // the field of the one problem; "" when valid
	}{
		{"a user step, the default start command", []builders.BuildStep{user("app"), run}, nil, "steps[0].user"},
		{"the last of two user steps counts", []builders.BuildStep{user("root"), user("app")}, nil, "steps[1].user"},
		{"start_cmd set", []builders.BuildStep{user("app")}, ptr("sleep infinity"), ""},
		{"start_cmd empty", []builders.BuildStep{user("app")}, ptr(""), ""},
		{"back to root", []builders.BuildStep{user("app"), run, user("root")}, nil, ""},
		{"E2B's user has sudo", []builders.BuildStep{user("user")}, nil, ""},
		{"no user step", []builders.BuildStep{run}, nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			spec := builders.TemplateSpec{TemplateID: "ci-app", Image: "e2bdev/code-interpreter:latest", Steps: tt.steps, StartCmd: tt.startCmd}
			errs := spec.Validate(&Backend)
			if tt.refusedAt == "" {
				if len(errs) != 0 {
					t.Fatalf("Validate = %v, want none", errs)
				}
				mustBuild(t, newTestBuilder(t, newEmulator(t)), spec)
				return
			}
			if len(errs) != 1 || errs[0].Field != tt.refusedAt {
				t.Fatalf("Validate = %v, want one problem on the last user step", errs)
			}
			for _, want := range []string{DefaultStartCmd, "no sudo", "Set start_cmd", `{ user = "root" }`} {
				if !strings.Contains(errs[0].Message, want) {
					t.Errorf("message %q does not say %q", errs[0].Message, want)
				}
			}
			if !slices.Contains(errs[0].Reads, "start_cmd") {
				t.Errorf("Reads = %v: an unknown start_cmd must defer the check", errs[0].Reads)
			}
			result, err := newTestBuilder(t, newEmulator(t)).Build(t.Context(), spec, builders.Observer{})
			if err == nil || result.Status == builders.StatusSuccess || !strings.Contains(err.Error(), "start command") {
				t.Errorf("built anyway = %+v, %v; want the emulator to fail it at the start command", result, err)
			}
		})
	}
}

// TestDefaultStartCheckWaitsForLaterSteps: a later step unknown at plan may switch back to root, so
// the problem reads it (the provider skips a problem whose Reads are unknown).
func TestDefaultStartCheckWaitsForLaterSteps(t *testing.T) {
	app := "app"
	spec := builders.TemplateSpec{TemplateID: "x", Image: "e2bdev/code-interpreter:latest",
		Steps: []builders.BuildStep{{User: &app}, {}, {}}}
	errs := defaultStartAsUserProblem(spec)
	if len(errs) != 1 || !slices.Equal(errs[0].Reads, []string{"image", "start_cmd", "steps[1]", "steps[2]"}) {
		t.Errorf("problems = %+v, want one reading image, start_cmd and the later steps", errs)
	}
}
