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

// listedTemplate is the part of GET /templates' Template that names it.
type listedTemplate struct {
	TemplateID string   `json:"templateID"`
	Names      []string `json:"names"`
	Aliases    []string `json:"aliases"`
}

// ListTemplates returns the names (aliases, the provider's template_id) of the team's templates,
// sorted. GET /templates answers the calling team's templates only, in one unpaginated page; a
// template without a name cannot be addressed by template_id and is left out.
func (b *Builder) ListTemplates(ctx context.Context) ([]string, error) {
	var listed []listedTemplate
	if err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/templates", Out: &listed}); err != nil {
		return nil, apihttp.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing templates: %w", err))
	}
	var names []string
	for _, t := range listed {
		for _, name := range append(t.Names, t.Aliases...) {
			// "namespace/alias" when namespaced: the alias is what template_id holds.
			names = append(names, name[strings.LastIndex(name, "/")+1:])
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
