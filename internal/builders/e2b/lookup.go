package e2b

import (
	"context"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// usableTag is the tag a template is built under and resolved by (E2B's default).
const usableTag = "default"

// IsUsable tells whether the alias resolves, in this team's namespace, to a template whose
// `default` tag is carried by a READY build: only then can it start sandboxes. E2B assigns tags
// when a build is requested and never removes them when it fails
// (packages/api/internal/template/register_build.go), so a tag alone proves nothing;
// GET /templates/aliases/{alias}:default answers 404 unless a ready build carries the tag
// (packages/api/internal/handlers/template_alias.go).
//
// A 403 means the alias resolves to another team's promoted template. That one is never adopted,
// but it does not stop this team from building its own under the same name: E2B creates it in the
// team's namespace (handlers/template_request_build_v3.go), which then resolves first. So it is
// "not usable", and Ensure builds. One request answers both "ours" and "has a ready build", so a
// refresh costs one request per template.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	return b.resolves(ctx, templateID, usableTag)
}

// Delete removes the template (by alias); a template that is already gone is not an error.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	err := b.api.deleteTemplate(ctx, templateID)
	if err == nil || apihttp.IsNotFound(err) {
		return nil
	}
	return builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("deleting template %s: %w", templateID, err))
}
