package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// templateTagIdentityModel names a tag across configurations: import blocks by identity and
// `terraform query` results.
type templateTagIdentityModel struct {
	Backend    types.String `tfsdk:"backend"`
	TemplateID types.String `tfsdk:"template_id"`
	Tag        types.String `tfsdk:"tag"`
}

func setTagIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m templateTagModel) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, templateTagIdentityModel{Backend: m.Backend, TemplateID: m.TemplateID, Tag: m.Tag})
}

func parseTagImportID(id string) (templateTagModel, error) {
	descriptor, rest, err := importedBackend(id)
	templateID, tag, found := strings.Cut(rest, ":")
	switch {
	case id == "":
		return templateTagModel{}, fmt.Errorf("the import ID is empty")
	case err != nil:
		return templateTagModel{}, err
	case descriptor.Tags == nil:
		return templateTagModel{}, fmt.Errorf("%s", builders.NoTags(descriptor))
	case !found:
		return templateTagModel{}, fmt.Errorf("%q names no tag", id)
	}
	if err := descriptor.ValidateTemplateID(templateID).Err(); err != nil {
		return templateTagModel{}, err
	}
	if problem := descriptor.Tags.TagProblem(tag); problem != "" {
		return templateTagModel{}, fmt.Errorf("tag %q %s", tag, problem)
	}
	m := templateTagModel{Backend: types.StringValue(string(descriptor.Name)), TemplateID: types.StringValue(templateID), Tag: types.StringValue(tag),
		Target: types.StringNull(), BuildID: types.StringNull()}
	m.setNames(descriptor)
	return m, nil
}
