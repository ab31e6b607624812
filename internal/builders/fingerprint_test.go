package builders

import (
	"reflect"
	"slices"
	"testing"
)

// TestSpecFieldsHaveRoles: every TemplateSpec field says its name in the schema and its role, so
// the fingerprint, the warnings and the provider's rebuild decision know what it is.
func TestSpecFieldsHaveRoles(t *testing.T) {
	spec := reflect.TypeFor[TemplateSpec]()
	for i := range spec.NumField() {
		f := spec.Field(i)
		if !f.IsExported() {
			continue
		}
		if !slices.Contains([]string{RoleIdentity, RoleInput, RoleCredential, RoleSetting}, f.Tag.Get("role")) || f.Tag.Get("field") == "" {
			t.Errorf("TemplateSpec.%s needs a field name and a role (identity, input, credential or setting), got tags %q", f.Name, f.Tag)
		}
	}
}

// TestFingerprintCoversEveryBuildInput sets each field of TemplateSpec in turn: every field of role
// input must change the fingerprint, and nothing else may. It fails when a field's role and the
// fingerprint disagree (rebuild_triggers once went missing this way and a change rebuilt nothing).
func TestFingerprintCoversEveryBuildInput(t *testing.T) {
	base := TemplateSpec{TemplateID: "py", Image: "python:3.12", Packages: []string{"numpy"}}
	fields := reflect.TypeOf(base)
	for i := range fields.NumField() {
		field := fields.Field(i)
		if !field.IsExported() {
			continue
		}
		edited := base
		setOther(t, reflect.ValueOf(&edited).Elem().Field(i), field)
		input := field.Tag.Get("role") == RoleInput
		switch changed := edited.Fingerprint() != base.Fingerprint(); {
		case !input && changed:
			t.Errorf("%s changed the fingerprint, but its role is %s, not input", field.Name, field.Tag.Get("role"))
		case input && !changed:
			t.Errorf("%s is a build input but does not change the fingerprint", field.Name)
		}
	}
	for name := range recordedInputs {
		if !slices.Contains(SpecFieldsWithRole(RoleInput), name) {
			t.Errorf("the fingerprint records %s, which is no build input of TemplateSpec", name)
		}
	}
}

// TestFingerprintCountsAnInputAddedLater: an input fingerprintInputs has no field for counts by its
// name, only when set, so adding one to TemplateSpec neither misses it nor moves old fingerprints.
func TestFingerprintCountsAnInputAddedLater(t *testing.T) {
	delete(recordedInputs, "min_free_disk_mb") // as if it had been added after fingerprintInputs
	defer func() { recordedInputs["min_free_disk_mb"] = true }()
	spec := TemplateSpec{TemplateID: "py", Image: "python:3.12", Packages: []string{"numpy"}}
	if got := spec.Fingerprint(); got != "ed38b991f9a32788" {
		t.Errorf("an unset input moved the fingerprint to %s", got)
	}
	zero := 0
	sized := spec
	sized.MinFreeDiskMB = &zero
	if sized.Fingerprint() == spec.Fingerprint() {
		t.Error("a set input without a field of its own did not change the fingerprint")
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
