// Package schemafloor is a benchmark's floor, never served by the sandbox provider: a resource with
// another resource's schema (attributes, types, defaults) and none of its logic (no validators,
// plan modifiers, ValidateConfig, ModifyPlan or API). internal/benchfloor serves sandbox_template's
// as floor_template, so `make bench` tells what the framework costs for that schema apart from what
// the provider adds (and BenchmarkSchemaFloorPlanRPCs does so in process).
package schemafloor

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// New is the floor of r: its type name and schema, without r's logic.
func New(r resource.Resource) resource.Resource { return schemaFloor{of: r} }

// Of makes the floor of p's resource named typeName (e.g. "sandbox_template"), so a caller outside
// the provider needs nothing of it but its Resources.
func Of(p provider.Provider, typeName string) func() resource.Resource {
	ctx := context.Background()
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	for _, newResource := range p.Resources(ctx) {
		var named resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &named)
		if named.TypeName == typeName {
			return func() resource.Resource { return New(newResource()) }
		}
	}
	panic(fmt.Sprintf("schemafloor: the provider has no resource %s", typeName))
}

type schemaFloor struct{ of resource.Resource }

func (f schemaFloor) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	f.of.Metadata(ctx, req, resp)
}

func (f schemaFloor) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	f.of.Schema(ctx, req, resp)
	resp.Schema.Attributes = withoutLogic(resp.Schema.Attributes)
}

// Create and Update store the plan, what apply would compute null; Read and Delete have nothing
// to look at.
func (schemaFloor) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = unknownsNull(req.Plan.Raw, &resp.Diagnostics)
}

func (schemaFloor) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = unknownsNull(req.Plan.Raw, &resp.Diagnostics)
}

func (schemaFloor) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (schemaFloor) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func unknownsNull(plan tftypes.Value, diags *diag.Diagnostics) tftypes.Value {
	state, err := tftypes.Transform(plan, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("schema floor", err.Error())
	}
	return state
}

// withoutLogic drops every attribute's validators and plan modifiers, nested ones included.
func withoutLogic(attributes map[string]schema.Attribute) map[string]schema.Attribute {
	bare := make(map[string]schema.Attribute, len(attributes))
	for name, a := range attributes {
		switch a := a.(type) {
		case schema.StringAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.Int64Attribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.BoolAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.ListAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.SetAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.MapAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			bare[name] = a
		case schema.ListNestedAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			a.NestedObject.Validators, a.NestedObject.PlanModifiers = nil, nil
			a.NestedObject.Attributes = withoutLogic(a.NestedObject.Attributes)
			bare[name] = a
		case schema.SingleNestedAttribute:
			a.Validators, a.PlanModifiers = nil, nil
			a.Attributes = withoutLogic(a.Attributes)
			bare[name] = a
		default:
			panic(fmt.Sprintf("schema floor: attribute %s is a %T: add it to withoutLogic", name, a))
		}
	}
	return bare
}
