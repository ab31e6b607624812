package builders

import (
	"fmt"
	"reflect"
)

// The roles a TemplateSpec field declares (its role tag): see TemplateSpec.
const (
	RoleIdentity   = "identity"
	RoleInput      = "input"
	RoleCredential = "credential"
	RoleSetting    = "setting"
)

// specField is one field of TemplateSpec as its tags declare it.
type specField struct {
	name  string // as the schema spells it: "cpu_count"
	role  string
	index int
}

// specFields are TemplateSpec's fields in the order they are declared; a field without a name or
// a known role is a bug that stops the provider at start (TestSpecFieldsHaveRoles says so first).
var specFields = func() []specField {
	var fields []specField
	spec := reflect.TypeFor[TemplateSpec]()
	for i := range spec.NumField() {
		f := spec.Field(i)
		if !f.IsExported() {
			continue // what the spec keeps of itself (Resolved), no field of the schema
		}
		role := f.Tag.Get("role")
		switch role {
		case RoleIdentity, RoleInput, RoleCredential, RoleSetting:
		default:
			panic(fmt.Sprintf("TemplateSpec.%s has no role (identity, input, credential or setting)", f.Name))
		}
		fields = append(fields, specField{name: f.Tag.Get("field"), role: role, index: i})
	}
	return fields
}()

// SpecFieldsWithRole names the spec's fields of a role, as the schema spells them, in declaration order.
func SpecFieldsWithRole(role string) []string {
	var names []string
	for _, f := range specFields {
		if f.role == role {
			names = append(names, f.name)
		}
	}
	return names
}

// SpecFields names the spec's fields a backend may ignore (every one but the template's identity),
// as the schema spells them.
var SpecFields = func() []string {
	var names []string
	for _, f := range specFields {
		if f.role != RoleIdentity {
			names = append(names, f.name)
		}
	}
	return names
}()

// isSet tells whether the spec sets a field: a pointer or interface that is not nil, a list or
// map with elements, any other value that is not its type's zero.
func (s TemplateSpec) isSet(f specField) bool {
	v := reflect.ValueOf(s).Field(f.index)
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		return v.Len() > 0
	}
	return !v.IsZero()
}
