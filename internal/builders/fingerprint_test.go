package builders

import (
	"reflect"
	"testing"
)

// notBuildInputs are the TemplateSpec fields that do not decide what a build makes: a new field is a
// build input (and must change Fingerprint) unless it is added here, with a reason.
var notBuildInputs = map[string]string{
	"TemplateID":   "names the template, it is not built into it",
	"RegistryAuth": "credentials: rotating them must not rebuild",
	"ForceRebuild": "a flag for this run, not an input of the build",
	"Tags":         "names of the build, not what it is made of: builds with other tags are the same bits",
	"Candidate":    "whether the plain template name starts the build, not what the build makes",
}

// TestFingerprintCoversEveryBuildInput sets each field of TemplateSpec in turn: every build input
// must change the fingerprint, and nothing else may. It fails when a field is added to TemplateSpec
// without a decision here (rebuild_triggers once went missing this way and a change rebuilt nothing).
func TestFingerprintCoversEveryBuildInput(t *testing.T) {
	base := TemplateSpec{TemplateID: "py", Image: "python:3.12", Packages: []string{"numpy"}}
	fields := reflect.TypeOf(base)
	for i := range fields.NumField() {
		field := fields.Field(i)
		edited := base
		setOther(t, reflect.ValueOf(&edited).Elem().Field(i), field)
		_, skip := notBuildInputs[field.Name]
		switch changed := edited.Fingerprint() != base.Fingerprint(); {
		case skip && changed:
			t.Errorf("%s changed the fingerprint, but it is not a build input (%s)", field.Name, notBuildInputs[field.Name])
		case !skip && !changed:
			t.Errorf("%s is a build input but does not change the fingerprint: add it to Fingerprint, or to notBuildInputs with a reason", field.Name)
		}
	}
}

// TestFingerprintIsStable: what existing builds were tagged with must not change when an input
// added later is left empty, and unset sizing is the default sizing.
func TestFingerprintIsStable(t *testing.T) {
	spec := TemplateSpec{TemplateID: "py", Image: "python:3.12", Packages: []string{"numpy"}}
	const recorded = "ed38b991f9a32788" // the fingerprint of spec before rebuild_triggers counted
	if got := spec.Fingerprint(); got != recorded {
		t.Errorf("Fingerprint = %s, want %s: templates built by earlier releases would no longer be recognised", got, recorded)
	}
	sized := spec
	sized.CPUCount, sized.MemoryMB = DefaultSandboxCPUCount, DefaultSandboxMemoryMB
	empty := spec
	empty.RebuildTriggers = map[string]string{}
	if sized.Fingerprint() != spec.Fingerprint() || empty.Fingerprint() != spec.Fingerprint() {
		t.Error("explicit default sizing or empty rebuild_triggers changed the fingerprint")
	}
}

// setOther gives v a value other than the one base has.
func setOther(t *testing.T, v reflect.Value, field reflect.StructField) {
	t.Helper()
	switch {
	case v.Kind() == reflect.String:
		v.SetString(v.String() + "-other")
	case v.Kind() == reflect.Int:
		v.SetInt(v.Int() + 4)
	case v.Kind() == reflect.Bool:
		v.SetBool(!v.Bool())
	case field.Type == reflect.TypeOf(&[]string{""}[0]):
		other := "other"
		v.Set(reflect.ValueOf(&other))
	case field.Type == reflect.TypeOf(&[]int{0}[0]):
		other := 0 // set, even to zero, is another input than unset
		v.Set(reflect.ValueOf(&other))
	case field.Type == reflect.TypeOf(&ReadyCheck{}):
		v.Set(reflect.ValueOf(&ReadyCheck{Port: 8000}))
	case field.Type == reflect.TypeOf([]BuildStep{}):
		v.Set(reflect.ValueOf([]BuildStep{{Run: &RunStep{Command: "true"}}}))
	case field.Type == reflect.TypeOf([]string{}):
		v.Set(reflect.Append(v, reflect.ValueOf("other")))
	case field.Type == reflect.TypeOf(map[string]string{}):
		v.Set(reflect.ValueOf(map[string]string{"other": "1"}))
	case field.Type == reflect.TypeOf((*RegistryAuth)(nil)).Elem():
		v.Set(reflect.ValueOf(RegistryAuth(&BasicAuth{Username: "u", Password: NewSecret("p")})))
	default:
		t.Fatalf("TemplateSpec.%s has type %s: teach setOther a value of it", field.Name, field.Type)
	}
}
