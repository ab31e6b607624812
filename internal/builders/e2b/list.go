package e2b

import (
	"context"
	"slices"
)

// ListTemplates returns the names (aliases, the provider's template_id) of the team's templates,
// sorted. GET /templates answers the calling team's templates only, in one unpaginated page; a
// template without a name cannot be addressed by template_id and is left out, and so is a name
// that is not a valid template_id: it would reach request paths, identities and generated
// configuration as the server wrote it ("..", "a/b").
func (b *Builder) ListTemplates(ctx context.Context) ([]string, error) {
	listed, err := b.listTemplates(ctx)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range listed {
		for _, name := range append(t.Names, t.Aliases...) {
			if alias := aliasOf(name); Backend.ValidateTemplateID(alias) == nil {
				names = append(names, alias)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
