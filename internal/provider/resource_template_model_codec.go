package provider

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// modelCodec reads and writes a templateModel as the object Terraform sends, with the field of
// each attribute and its type worked out once. The framework's Get and Set do the same work on
// every call, reflecting over the struct tags and rebuilding the schema's types (about 1,100
// allocations per model: BenchmarkTemplatePlanRPCs), and every template in a plan or a refresh
// is decoded at least once.
type modelCodec struct {
	objectType tftypes.Type
	fields     []codecField
}

type codecField struct {
	name    string
	role    string // the field's role tag: see templateModel
	index   int
	typ     attr.Type
	unknown attr.Value // the attribute's unknown value
}

// The roles of templateModel's fields.
const (
	roleIdentity   = "identity"
	roleInput      = "input"
	roleCredential = "credential"
	roleSetting    = "setting"
	roleResult     = "result"
	roleOutput     = "output"
)

var roles = []string{roleIdentity, roleInput, roleCredential, roleSetting, roleResult, roleOutput}

var templateCodec = sync.OnceValue(func() modelCodec {
	ctx := context.Background()
	s := templateResourceSchema(ctx)
	attributes := s.GetAttributes()
	codec := modelCodec{objectType: s.Type().TerraformType(ctx)}
	model := reflect.TypeFor[templateModel]()
	for i := range model.NumField() {
		field := model.Field(i)
		attribute, ok := attributes[field.Tag.Get("tfsdk")]
		if !ok || !field.Type.Implements(reflect.TypeFor[attr.Value]()) {
			panic(fmt.Sprintf("templateModel.%s: no attribute %q of its type in the schema", field.Name, field.Tag.Get("tfsdk")))
		}
		if !slices.Contains(roles, field.Tag.Get("role")) {
			panic(fmt.Sprintf("templateModel.%s has no role: one of %v", field.Name, roles))
		}
		typ := attribute.GetType()
		unknown, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), tftypes.UnknownValue))
		if err != nil {
			panic(fmt.Sprintf("templateModel.%s: %v", field.Name, err))
		}
		codec.fields = append(codec.fields, codecField{name: field.Tag.Get("tfsdk"), role: field.Tag.Get("role"), index: i,
			typ: typ, unknown: unknown})
	}
	if len(codec.fields) != len(attributes) {
		panic(fmt.Sprintf("templateModel has %d fields for %d attributes", len(codec.fields), len(attributes)))
	}
	return codec
})

// readModel reads a configuration, plan or state (never null) into m, as Get would.
func readModel(ctx context.Context, raw tftypes.Value, m *templateModel) diag.Diagnostics {
	var diags diag.Diagnostics
	var values map[string]tftypes.Value
	if err := raw.As(&values); err != nil || values == nil {
		diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("cannot read %s as the resource's object: %v; please report this bug", raw.Type(), err))
		return diags
	}
	target := reflect.ValueOf(m).Elem()
	for _, f := range templateCodec().fields {
		v, err := f.typ.ValueFromTerraform(ctx, values[f.name])
		if err != nil {
			diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("%s: %v; please report this bug", f.name, err))
			return diags
		}
		target.Field(f.index).Set(reflect.ValueOf(v))
	}
	return diags
}

// writeModel stores m as a plan or state (into its Raw), as Set would.
func writeModel(ctx context.Context, m templateModel, raw *tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	codec := templateCodec()
	source := reflect.ValueOf(&m).Elem()
	values := make(map[string]tftypes.Value, len(codec.fields))
	for _, f := range codec.fields {
		value, ok := source.Field(f.index).Interface().(attr.Value)
		if !ok {
			diags.AddError("Unexpected sandbox_template value", f.name+" is no attr.Value; please report this bug")
			return diags
		}
		v, err := value.ToTerraformValue(ctx)
		if err != nil {
			diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("%s: %v; please report this bug", f.name, err))
			return diags
		}
		values[f.name] = v
	}
	if err := tftypes.ValidateValue(codec.objectType, values); err != nil {
		diags.AddError("Unexpected sandbox_template value", err.Error()+"; please report this bug")
		return diags
	}
	*raw = tftypes.NewValue(codec.objectType, values)
	return diags
}

// withRole are the fields of a role, in the order templateModel declares them.
func (c modelCodec) withRole(role string) []codecField {
	var fields []codecField
	for _, f := range c.fields {
		if f.role == role {
			fields = append(fields, f)
		}
	}
	return fields
}

// value is m's value of field f.
func (m templateModel) value(f codecField) attr.Value {
	v, _ := reflect.ValueOf(m).Field(f.index).Interface().(attr.Value)
	return v
}

// set sets m's field f to v, a value of its type.
func (m *templateModel) set(f codecField, v attr.Value) {
	reflect.ValueOf(m).Elem().Field(f.index).Set(reflect.ValueOf(v))
}

// attribute is m's value of the attribute called name (nil when there is none).
func (m templateModel) attribute(name string) attr.Value {
	for _, f := range templateCodec().fields {
		if f.name == name {
			return m.value(f)
		}
	}
	return nil
}
