package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// refNamesBuild tells whether template_ref names the build rather than the template
// (Backend.RefNamesBuild: a Daytona snapshot's name changes with each build), so that a plan that
// builds cannot know it and a refresh that records another build records its reference too.
func refNamesBuild(backend types.String) bool {
	descriptor, err := backends.Named(backend.ValueString())
	return err == nil && descriptor.RefNamesBuild
}

// servedRef is the reference consumers of templateID start from now, nil when the template is not
// usable: the template id, or where the reference names the build, the build the template serves.
func servedRef(ctx context.Context, b builders.Builder, templateID string) (*builders.TemplateRef, error) {
	ref := &builders.TemplateRef{Provider: b.Backend().Name, Value: templateID}
	if checker, ok := b.(builders.ServingChecker); ok && b.Backend().RefNamesBuild {
		served, err := checker.Serving(ctx, templateID, false, "")
		if err != nil || served == "" {
			return nil, err
		}
		ref.Value = served
		return ref, nil
	}
	usable, err := b.IsUsable(ctx, templateID)
	if err != nil || !usable {
		return nil, err
	}
	return ref, nil
}

// importedRef is the reference an import records where it names the build: the build served, or
// fallback when none is (the read that follows the import removes the resource then).
func (r *templateResource) importedRef(ctx context.Context, backend, templateID string, fallback *builders.TemplateRef,
	diags *diag.Diagnostics) *builders.TemplateRef {
	builder, err := r.backends.Builder(ctx, backend)
	if err != nil {
		diags.Append(notConfigured(err))
		return fallback
	}
	ctx, cancel := r.backends.readContext(ctx)
	defer cancel()
	ref, err := servedRef(ctx, builder, templateID)
	if err != nil {
		diags.AddError("Could not read sandbox template", r.backends.readError(ctx, backend, templateID, err).Error())
	}
	if ref == nil {
		return fallback
	}
	return ref
}
