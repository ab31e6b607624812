package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// templateIdentityModel is what names a template across configurations (Terraform >= 1.12,
// OpenTofu >= 1.12): `import` blocks with `identity = {...}` and `terraform query` results use it.
type templateIdentityModel struct {
	Backend    types.String `tfsdk:"backend"`
	TemplateID types.String `tfsdk:"template_id"`
}

// setIdentity records the identity of the template named by backend and templateID. Every
// create, read, update and import sets it, so CLIs that keep identities never see one missing
// (older CLIs ignore it).
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, backend, templateID types.String) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, templateIdentityModel{Backend: backend, TemplateID: templateID})
}

// importID is the import's "<backend>/<template_id>" string, from an `import` block's `identity`
// when it has no `id`.
func importID(ctx context.Context, req resource.ImportStateRequest) (string, diag.Diagnostics) {
	if req.ID != "" || req.Identity == nil {
		return req.ID, nil
	}
	var id templateIdentityModel
	diags := req.Identity.Get(ctx, &id)
	return id.Backend.ValueString() + "/" + id.TemplateID.ValueString(), diags
}

// importedBackend reads the "[<backend>/]<rest>" an import ID starts with: the named backend, or
// backends.ImportDefault when it names none, and what follows.
func importedBackend(id string) (*builders.Backend, string, error) {
	backend, rest := string(backends.ImportDefault.Name), id
	if before, after, found := strings.Cut(id, "/"); found {
		backend, rest = before, after
	}
	descriptor, err := backends.Named(backend)
	return descriptor, rest, err
}

type attributeSetter interface {
	SetAttribute(ctx context.Context, p path.Path, val any) diag.Diagnostics
}

// setImportedAttributes fills what state holds for an existing template before its first read:
// an import's state, and a listed template's resource. Build inputs cannot be read back from a
// backend, so they stay null (the first apply adopts the configured ones).
func setImportedAttributes(ctx context.Context, s attributeSetter, backend, templateID string) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.Append(s.SetAttribute(ctx, path.Root("backend"), backend)...)
	diags.Append(s.SetAttribute(ctx, path.Root("template_id"), templateID)...)
	diags.Append(s.SetAttribute(ctx, path.Root("id"), templateID)...)
	diags.Append(s.SetAttribute(ctx, path.Root("force_rebuild"), false)...)
	diags.Append(s.SetAttribute(ctx, path.Root("keep_remotely"), false)...)
	diags.Append(s.SetAttribute(ctx, path.Root(builders.FieldCandidate), false)...)
	return diags
}
