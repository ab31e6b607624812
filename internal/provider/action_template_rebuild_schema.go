package provider

import (
	"context"
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// notRebuilt are the resource's build inputs the rebuild action does not take, and why.
var notRebuilt = map[string]string{
	"base_template":    "a source E2B's own templates are customised from, not one this action rebuilds",
	"dockerfile":       "deprecated",
	"rebuild_triggers": "the action always rebuilds: nothing to trigger",
}

// rebuildInputAttributes are the resource's other build inputs, as they are: every one the action
// does not declare itself (image, packages, ... with words of its own) or leave out (notRebuilt).
// actionAttribute restates a resource attribute in the action schema's types, so both read the same
// HCL, the steps are described once, and an input added to the resource is one the action takes.
func rebuildInputAttributes(ctx context.Context, declared map[string]actionschema.Attribute) map[string]actionschema.Attribute {
	resourceAttributes := templateResourceSchema(ctx).Attributes
	inputs := map[string]actionschema.Attribute{}
	for _, f := range templateCodec().withRole(roleInput) {
		a := resourceAttributes[f.name]
		if _, own := declared[f.name]; !own && notRebuilt[f.name] == "" && !a.IsComputed() {
			inputs[f.name] = actionAttribute(a)
		}
	}
	return inputs
}

func actionAttribute(a schema.Attribute) actionschema.Attribute {
	switch a := a.(type) {
	case schema.StringAttribute:
		return actionschema.StringAttribute{Required: a.Required, Optional: a.Optional, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.BoolAttribute:
		return actionschema.BoolAttribute{Required: a.Required, Optional: a.Optional, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.Int64Attribute:
		return actionschema.Int64Attribute{Required: a.Required, Optional: a.Optional, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
	case schema.ListAttribute:
		return actionschema.ListAttribute{Required: a.Required, Optional: a.Optional, ElementType: a.ElementType, MarkdownDescription: a.MarkdownDescription}
	case schema.MapAttribute:
		return actionschema.MapAttribute{Required: a.Required, Optional: a.Optional, ElementType: a.ElementType, MarkdownDescription: a.MarkdownDescription}
	case schema.SingleNestedAttribute:
		return actionschema.SingleNestedAttribute{Required: a.Required, Optional: a.Optional, MarkdownDescription: a.MarkdownDescription,
			Attributes: actionAttributes(a.Attributes)}
	case schema.ListNestedAttribute:
		return actionschema.ListNestedAttribute{Required: a.Required, Optional: a.Optional, MarkdownDescription: a.MarkdownDescription,
			NestedObject: actionschema.NestedAttributeObject{Attributes: actionAttributes(a.NestedObject.Attributes)}}
	}
	panic(fmt.Sprintf("actionAttribute: no action counterpart for %T", a))
}

func actionAttributes(attrs map[string]schema.Attribute) map[string]actionschema.Attribute {
	out := make(map[string]actionschema.Attribute, len(attrs))
	for name, a := range attrs {
		out[name] = actionAttribute(a)
	}
	return out
}
