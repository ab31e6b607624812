package opensandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// ListTemplates returns the distinct names of Ready snapshots (the provider's template_id: a
// template is usable when a Ready snapshot carries its name), sorted. Unnamed snapshots are not
// templates and are left out, and so are names that are not a valid template_id: they would reach
// request queries, identities and generated configuration as the server wrote them.
func (b *Builder) ListTemplates(ctx context.Context) ([]string, error) {
	var names []string
	for page := 1; page <= maxSnapshotPages; page++ {
		query := url.Values{"page": {strconv.Itoa(page)}, "pageSize": {strconv.Itoa(snapshotPageSize)}, "state": {snapshotReady}}
		var list snapshotList
		if err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots", Query: query, Out: &list}); err != nil {
			return nil, builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing snapshots: %w", err))
		}
		for _, s := range list.Items {
			if Backend.ValidateTemplateID(s.Name) == nil {
				names = append(names, s.Name)
			}
		}
		if !list.Pagination.HasNextPage || len(list.Items) == 0 {
			break
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
