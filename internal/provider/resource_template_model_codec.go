package provider

import (
	"context"
	"fmt"
	"reflect"
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
	name  string
	index int
	typ   attr.Type
}

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
		codec.fields = append(codec.fields, codecField{name: field.Tag.Get("tfsdk"), index: i, typ: attribute.GetType()})
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

// attribute is m's value of the attribute called name (nil when there is none).
func (m templateModel) attribute(name string) attr.Value {
	for _, f := range templateCodec().fields {
		if f.name == name {
			v, _ := reflect.ValueOf(m).Field(f.index).Interface().(attr.Value)
			return v
		}
	}
	return nil
}
