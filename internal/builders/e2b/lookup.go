package e2b

import (
	"context"
	"fmt"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// IsUsable tells whether the alias is this team's and its template has at least one tag: E2B tags
// a template only when a build succeeds, so a template whose builds all failed or are still
// running is not usable. The alias check comes first because it alone answers 403 for an alias
// another team owns, public or not: a template found that way must never be adopted.
func (b *Builder) IsUsable(ctx context.Context, templateID string) (bool, error) {
	alias, err := b.api.templateByAlias(ctx, templateID)
	switch {
	case IsNotFound(err):
		return false, nil
	case err != nil:
		return false, lookupError(templateID, "looking up template", err)
	}
	return b.hasTags(ctx, templateID, alias.TemplateID)
}

// StillUsable re-checks a template the provider already manages in one request: the tags of its
// alias, which E2B resolves as it does for sandboxes. Ownership was settled when the template was
// built or adopted, so the alias check IsUsable adds is not repeated on every refresh.
func (b *Builder) StillUsable(ctx context.Context, templateID string) (bool, error) {
	return b.hasTags(ctx, templateID, templateID)
}

// hasTags tells whether the template (by id or alias) has a tag; a template that is gone has none.
func (b *Builder) hasTags(ctx context.Context, templateID, idOrAlias string) (bool, error) {
	tags, err := b.api.templateTags(ctx, idOrAlias)
	switch {
	case IsNotFound(err):
		return false, nil
	case err != nil:
		return false, lookupError(templateID, "listing tags of template", err)
	}
	return len(tags) > 0, nil
}

// lookupError names the failed lookup; a 403 means the alias is another team's, which no retry fixes.
func lookupError(templateID, doing string, err error) error {
	if statusOf(err) == http.StatusForbidden {
		return builders.AtStage(builders.StageTemplateLookup,
			fmt.Errorf("template alias %s exists but belongs to another E2B team: choose another template_id: %w", templateID, err))
	}
	return atStage(builders.StageTemplateLookup, fmt.Errorf("%s %s: %w", doing, templateID, err))
}

// Delete removes the template (by alias); a template that is already gone is not an error.
func (b *Builder) Delete(ctx context.Context, templateID string) error {
	err := b.api.deleteTemplate(ctx, templateID)
	if err == nil || IsNotFound(err) {
		return nil
	}
	return atStage(builders.StageTemplateLookup, fmt.Errorf("deleting template %s: %w", templateID, err))
}
