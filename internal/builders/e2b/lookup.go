package e2b

import (
	"context"
	"fmt"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// IsUsable tells whether the alias exists and its template has at least one tag: E2B tags a
// template only when a build succeeds, so a template whose builds all failed or are still
// running is not usable.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	alias, err := b.api.templateByAlias(ctx, templateID)
	switch {
	case IsNotFound(err):
		return false, nil
	case statusOf(err) == http.StatusForbidden:
		// The alias check answers 403 for an alias another team owns.
		return false, builders.AtStage(builders.StageTemplateLookup,
			fmt.Errorf("template alias %s exists but belongs to another E2B team: choose another template_id: %w", templateID, err))
	case err != nil:
		return false, atStage(builders.StageTemplateLookup, fmt.Errorf("looking up template %s: %w", templateID, err))
	}
	tags, err := b.api.templateTags(ctx, alias.TemplateID)
	switch {
	case IsNotFound(err):
		return false, nil // deleted between the two calls
	case err != nil:
		return false, atStage(builders.StageTemplateLookup, fmt.Errorf("listing tags of template %s: %w", templateID, err))
	}
	return len(tags) > 0, nil
}

// Delete removes the template (by alias); a template that is already gone is not an error.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	err := b.api.deleteTemplate(ctx, templateID)
	if err == nil || IsNotFound(err) {
		return nil
	}
	return atStage(builders.StageTemplateLookup, fmt.Errorf("deleting template %s: %w", templateID, err))
}
