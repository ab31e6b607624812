package daytona

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestCheck: what Daytona cannot take is refused at plan time, on the attribute: sizes in its
// units, steps a Dockerfile line cannot hold, a start command the SDK's ENTRYPOINT cannot quote.
func TestCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	image := "python:3.12"
	for _, tt := range []struct {
		name string
		spec builders.TemplateSpec
		want []string // "field: substring"; none: valid
	}{
		{"defaults", builders.TemplateSpec{TemplateID: "py", Image: image}, nil},
		{"whole GB", builders.TemplateSpec{TemplateID: "py", Image: image, CPUCount: 4, MemoryMB: 4096}, nil},
		{"memory not whole GB", builders.TemplateSpec{TemplateID: "py", Image: image, MemoryMB: 1500}, []string{"memory_mb: must be a positive multiple of 1024"}},
		{"negative cpu", builders.TemplateSpec{TemplateID: "py", Image: image, CPUCount: -1}, []string{"cpu_count: must be at least 1"}},
		{"multi-line run", builders.TemplateSpec{TemplateID: "py", Image: image, Steps: []builders.BuildStep{{Run: &builders.RunStep{Command: "a\nb"}}}},
			[]string{"steps[0]: its command must be one line"}},
		{"multi-line env", builders.TemplateSpec{TemplateID: "py", Image: image, Steps: []builders.BuildStep{{Env: map[string]string{"K": "a\nb"}}}},
			[]string{"steps[0]: K's value must be one line"}},
		{"file step", builders.TemplateSpec{TemplateID: "py", Image: image, Steps: []builders.BuildStep{{File: &builders.FileStep{Content: str("x"), Destination: "/x"}}}}, nil},
		{"file step to a spaced path", builders.TemplateSpec{TemplateID: "py", Image: image, Steps: []builders.BuildStep{{File: &builders.FileStep{Content: str("x"), Destination: "/my dir/x"}}}},
			[]string{"steps[0]: its destination must not hold whitespace"}},
		{"quoted start with steps", builders.TemplateSpec{TemplateID: "py", Image: image, Packages: []string{"flask"}, StartCmd: str(`echo "hi"`)},
			[]string{"start_cmd: must not hold a double quote"}},
		{"quoted start from an image", builders.TemplateSpec{TemplateID: "py", Image: image, StartCmd: str(`echo "hi"`)}, nil},
		{"ready_cmd is only ignored", builders.TemplateSpec{TemplateID: "py", Image: image, ReadyCmd: "true"}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := tt.spec.Validate(&Backend)
			if len(errs) != len(tt.want) {
				t.Fatalf("errors = %v, want %v", errs, tt.want)
			}
			for i, want := range tt.want {
				field, msg, _ := strings.Cut(want, ": ")
				if errs[i].Field != field || !strings.Contains(errs[i].Message, msg) {
					t.Errorf("error %d = %s: %s, want %s", i, errs[i].Field, errs[i].Message, want)
				}
			}
		})
	}
}
