package schemafloor_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/provider"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/schemafloor"
)

// The floor make bench compares sandbox_template with must have its schema exactly, whatever
// attribute kinds the resource gains, and none of its logic.
func TestSchemaFloorHasTheTemplateSchema(t *testing.T) {
	var template, floor resource.SchemaResponse
	var meta resource.MetadataResponse
	newFloor := schemafloor.Of(provider.New("test")(), "sandbox_template")
	newFloor().Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "floor"}, &meta)
	if meta.TypeName != "floor_template" {
		t.Errorf("the floor is named %q, not floor_template", meta.TypeName)
	}
	servedTemplate(t).Schema(t.Context(), resource.SchemaRequest{}, &template)
	newFloor().Schema(t.Context(), resource.SchemaRequest{}, &floor)
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

// servedTemplate is sandbox_template as the provider serves it.
func servedTemplate(t *testing.T) resource.Resource {
	for _, newResource := range provider.New("test")().Resources(t.Context()) {
		var meta resource.MetadataResponse
		r := newResource()
		r.Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "sandbox"}, &meta)
		if meta.TypeName == "sandbox_template" {
			return r
		}
	}
	t.Fatal("the provider serves no sandbox_template")
	return nil
}
