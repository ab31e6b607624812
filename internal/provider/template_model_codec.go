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
	objectType tftypes.Object
	fields     []codecField
}

type codecField struct {
	name  string
	index int
	typ   attr.Type
}

var templateCodec = sync.OnceValue(func() modelCodec {
	ctx := context.Background()
	schemaType := templateResourceSchema(ctx).Type()
	attrTypes := schemaType.(attr.TypeWithAttributeTypes).AttributeTypes()
	codec := modelCodec{objectType: schemaType.TerraformType(ctx).(tftypes.Object)}
	model := reflect.TypeFor[templateModel]()
	for i := range model.NumField() {
		name := model.Field(i).Tag.Get("tfsdk")
		typ, ok := attrTypes[name]
		if !ok {
			panic(fmt.Sprintf("templateModel.%s: no attribute %q in the schema", model.Field(i).Name, name))
		}
		codec.fields = append(codec.fields, codecField{name: name, index: i, typ: typ})
	}
	if len(codec.fields) != len(attrTypes) {
		panic(fmt.Sprintf("templateModel has %d fields for %d attributes", len(codec.fields), len(attrTypes)))
	}
	return codec
})

// readModel reads a configuration, plan or state (never null) into m, as Get would.
func readModel(ctx context.Context, raw tftypes.Value, m *templateModel) diag.Diagnostics {
	return templateCodec().decode(ctx, raw, m)
}

// writeModel stores m as a plan or state (into its Raw), as Set would.
func writeModel(ctx context.Context, m templateModel, raw *tftypes.Value) diag.Diagnostics {
	v, diags := templateCodec().encode(ctx, m)
	if !diags.HasError() {
		*raw = v
	}
	return diags
}

// attribute is m's value of the attribute called name (nil when there is none).
func (m templateModel) attribute(name string) attr.Value {
	for _, f := range templateCodec().fields {
		if f.name == name {
			return reflect.ValueOf(m).Field(f.index).Interface().(attr.Value)
		}
	}
	return nil
}

func (c modelCodec) decode(ctx context.Context, raw tftypes.Value, m *templateModel) diag.Diagnostics {
	var diags diag.Diagnostics
	var values map[string]tftypes.Value
	if err := raw.As(&values); err != nil || values == nil {
		diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("cannot read %s as the resource's object: %v; please report this bug", raw.Type(), err))
		return diags
	}
	target := reflect.ValueOf(m).Elem()
	for _, f := range c.fields {
		v, err := f.typ.ValueFromTerraform(ctx, values[f.name])
		if err != nil {
			diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("%s: %v; please report this bug", f.name, err))
			return diags
		}
		target.Field(f.index).Set(reflect.ValueOf(v))
	}
	return diags
}

// encode is m as the object Terraform takes.
func (c modelCodec) encode(ctx context.Context, m templateModel) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	values := make(map[string]tftypes.Value, len(c.fields))
	source := reflect.ValueOf(m)
	for _, f := range c.fields {
		v, err := source.Field(f.index).Interface().(attr.Value).ToTerraformValue(ctx)
		if err != nil {
			diags.AddError("Unexpected sandbox_template value", fmt.Sprintf("%s: %v; please report this bug", f.name, err))
			return tftypes.Value{}, diags
		}
		values[f.name] = v
	}
	if err := tftypes.ValidateValue(c.objectType, values); err != nil {
		diags.AddError("Unexpected sandbox_template value", err.Error()+"; please report this bug")
		return tftypes.Value{}, diags
	}
	return tftypes.NewValue(c.objectType, values), diags
}
