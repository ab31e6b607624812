package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// The floor make bench compares sandbox_template with must have its schema exactly, whatever
// attribute kinds the resource gains, and none of its logic.
func TestSchemaFloorHasTheTemplateSchema(t *testing.T) {
	var template, floor resource.SchemaResponse
	newTemplateResource().Schema(t.Context(), resource.SchemaRequest{}, &template)
	NewSchemaFloor().Schema(t.Context(), resource.SchemaRequest{}, &floor)
	want, got := template.Schema.Type().TerraformType(t.Context()), floor.Schema.Type().TerraformType(t.Context())
	if !got.Equal(want) {
		t.Errorf("the floor's schema is\n%s\nnot sandbox_template's\n%s", got, want)
	}
	if got := len(floor.Schema.Attributes); got != len(template.Schema.Attributes) {
		t.Errorf("the floor has %d attributes, sandbox_template %d", got, len(template.Schema.Attributes))
	}
	for name, a := range floor.Schema.Attributes {
		if v, ok := a.(interface{ ValidatorsCount() int }); ok && v.ValidatorsCount() > 0 {
			t.Errorf("the floor's %s keeps %d validators", name, v.ValidatorsCount())
		}
	}
}
