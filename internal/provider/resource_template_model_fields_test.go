package provider

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestFieldRolesAreDeclared: every field of templateModel declares its role, so the rebuild
// decision, the plan's unknown results and the copies of a kept build know what it is.
func TestFieldRolesAreDeclared(t *testing.T) {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[templateModel]()) {
		if role := f.Tag.Get("role"); !slices.Contains(roles, role) {
			t.Errorf("templateModel.%s has role %q, not one of %v", f.Name, role, roles)
		}
	}
}

// TestFieldRolesAgreeWithTheSpec: the model's build inputs are the core's (whose fingerprint
// records them: builders.TestFingerprintCoversEveryBuildInput), and each spec field has the
// attribute of its name with the same role, so what rebuilds and what a build is fingerprinted
// from cannot drift apart.
func TestFieldRolesAgreeWithTheSpec(t *testing.T) {
	codec := templateCodec()
	for _, role := range []string{builders.RoleIdentity, builders.RoleInput, builders.RoleCredential, builders.RoleSetting} {
		for _, name := range builders.SpecFieldsWithRole(role) {
			f, ok := fieldNamed(codec, name)
			if !ok || f.role != role {
				t.Errorf("TemplateSpec's %s is a %s: the model needs an attribute %s of that role (got %+v)", name, role, name, f)
			}
		}
	}
	for _, f := range codec.withRole(roleInput) {
		// files_hash is the content of the files the steps place: in the spec, part of steps
		if f.name != "files_hash" && !slices.Contains(builders.SpecFieldsWithRole(builders.RoleInput), f.name) {
			t.Errorf("the model's build input %s is no build input of TemplateSpec: its fingerprint would miss it", f.name)
		}
	}
}

// TestFieldRolesDecideTheRebuild: a plan that changes one field rebuilds exactly when the field is
// a build input; keeping the build copies every result, rebuilding leaves every result unknown.
func TestFieldRolesDecideTheRebuild(t *testing.T) {
	codec := templateCodec()
	state := nullModel(t)
	for _, f := range codec.fields {
		plan := state
		plan.set(f, f.unknown)
		if got, want := buildInputsChanged(plan, state), f.role == roleInput; got != want {
			t.Errorf("changing %s (a %s): rebuild = %t, want %t", f.name, f.role, got, want)
		}
	}
	plan := state
	plan.unknownResult()
	for _, f := range codec.withRole(roleResult) {
		if !plan.value(f).IsUnknown() {
			t.Errorf("a plan that builds knows %s", f.name)
		}
	}
	plan.copyResult(state)
	for _, f := range codec.withRole(roleResult) {
		if !plan.value(f).Equal(state.value(f)) {
			t.Errorf("a kept build did not keep %s", f.name)
		}
	}
}

func fieldNamed(codec modelCodec, name string) (codecField, bool) {
	for _, f := range codec.fields {
		if f.name == name {
			return f, true
		}
	}
	return codecField{}, false
}

// nullModel is a model whose every attribute is null, each of its own type.
func nullModel(t *testing.T) templateModel {
	t.Helper()
	var m templateModel
	for _, f := range templateCodec().fields {
		v, err := f.typ.ValueFromTerraform(context.Background(), tftypes.NewValue(f.typ.TerraformType(context.Background()), nil))
		if err != nil {
			t.Fatal(err)
		}
		m.set(f, v)
	}
	return m
}
