package provider

import (
	"fmt"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// The rebuild action takes the resource's steps, ready_check and min_free_disk_mb as they are:
// actionAttribute restates a resource attribute in the action schema's types, so both read the
// same HCL and the steps are described once.
func rebuildStepAttributes() map[string]actionschema.Attribute {
	return map[string]actionschema.Attribute{
		"steps":            actionAttribute(stepsAttribute()),
		"ready_check":      actionAttribute(readyCheckAttribute()),
		"min_free_disk_mb": actionAttribute(minFreeDiskAttribute()),
	}
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
