package e2b

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// noBuildID is what GET /templates answers as buildID when no ready build serves the template.
const noBuildID = "00000000-0000-0000-0000-000000000000"

// listedTemplate is one entry of GET /templates (handlers/templates_list.go).
type listedTemplate struct {
	TemplateID string   `json:"templateID"`
	Names      []string `json:"names"`
	Aliases    []string `json:"aliases"`
	// BuildID is the build sandboxes of the template start from: its `default` tag's newest
	// assignment whose build is ready (get_team_templates.sql, the rule sandbox creation follows in
	// get_template_with_build_by_tag.sql). The only answer that names that build.
	BuildID string `json:"buildID"`
}

// servedBuild returns the build sandboxes of it start from, "" when none.
func (t listedTemplate) servedBuild() string {
	if t.BuildID == noBuildID {
		return ""
	}
	return t.BuildID
}

// named tells whether alias (the provider's template_id) names t in the team's namespace.
func (t listedTemplate) named(alias string) bool {
	return slices.ContainsFunc(append(t.Names, t.Aliases...), func(name string) bool { return aliasOf(name) == alias })
}

// aliasOf is the alias (what template_id holds) of a name, "namespace/alias" when namespaced.
func aliasOf(name string) string { return name[strings.LastIndex(name, "/")+1:] }

// listTemplates is GET /templates: the calling team's templates only, in one unpaginated page.
func (b *Builder) listTemplates(ctx context.Context) ([]listedTemplate, error) {
	var listed []listedTemplate
	if err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates", Out: &listed, MaxItems: templateListItems}); err != nil {
		return nil, builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing templates: %w", err))
	}
	return listed, nil
}

// findTemplate returns the team's template named alias, if it has one.
func (b *Builder) findTemplate(ctx context.Context, alias string) (listedTemplate, bool, error) {
	listed, err := b.listTemplates(ctx)
	for _, t := range listed {
		if t.named(alias) {
			return t, true, nil
		}
	}
	return listedTemplate{}, false, err
}

// Serving returns the build the resource's consumers start sandboxes from ("" when none): what the
// plain name starts (`default`), or, for a candidate, the recorded build itself while it is ready:
// only "name:<build id>" starts a candidate's build, and nothing moves that. One request while the
// recorded build is still served (see servedBy).
func (b *Builder) Serving(ctx context.Context, templateID string, candidate bool, recorded string) (string, error) {
	served, _, err := b.ServingAndTags(ctx, templateID, candidate, recorded, nil)
	return served, err
}

// ServingAndTags is Serving, and which of tags (the record's own) no longer start the served build,
// each with the build it starts now ("" when the tag is gone): from the GET /tags answer Serving
// reads anyway, so a refresh whose tags are in place sends no more request than Serving (a
// candidate's, which Serving answers by its build id, one more). See movedTags.
func (b *Builder) ServingAndTags(ctx context.Context, templateID string, candidate bool, recorded string, tags []string) (string, map[string]string, error) {
	ref := usableTag
	if candidate && recorded != "" {
		ref = recorded
	}
	var listed []templateTag
	if !isBuildID(ref) || len(tags) > 0 {
		var err error
		if listed, err = b.tagsOf(ctx, templateID); err != nil {
			return "", nil, err
		}
	}
	served, err := b.servedBy(ctx, templateID, ref, listed, recorded)
	if err != nil || served == "" {
		return served, nil, err
	}
	moved, err := b.movedTags(ctx, templateID, tags, listed, served)
	return served, moved, err
}
