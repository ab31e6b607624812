package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
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

func (r *templateTagResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"backend": identityschema.StringAttribute{RequiredForImport: true,
			Description: "Sandbox backend: " + strings.ReplaceAll(backtickList(taggingBackends()), "`", "") + "."},
		"template_id": identityschema.StringAttribute{RequiredForImport: true,
			Description: "The template: " + templateNames(taggingBackends()) + "."},
		"tag": identityschema.StringAttribute{RequiredForImport: true, Description: "The tag."},
	}}
}

func setTagIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, m templateTagModel) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, templateTagIdentityModel{Backend: m.Backend, TemplateID: m.TemplateID, Tag: m.Tag})
}

// ImportState takes "<template_id>:<tag>" (of backends.ImportDefault, E2B),
// "<backend>/<template_id>:<tag>", or an identity. The read that follows records where the tag
// points, and takes that build as target.
func (r *templateTagResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := req.ID
	if id == "" && req.Identity != nil && !req.Identity.Raw.IsNull() { // `terraform import x ""` sends a null identity
		var identity templateTagIdentityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &identity)...)
		id = identity.Backend.ValueString() + "/" + identity.TemplateID.ValueString() + ":" + identity.Tag.ValueString()
	}
	m, err := parseTagImportID(id)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("Expected \"<template_id>:<tag>\" or \"<backend>/<template_id>:<tag>\": %s", err))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	resp.Diagnostics.Append(setTagIdentity(ctx, resp.Identity, m)...)
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
