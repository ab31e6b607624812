package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
)

// streamResults answers a `terraform query` list: diags when they hold an error, else one result per
// item, up to req.Limit, that fill completes (display name, identity and, when req.IncludeResource,
// the resource).
func streamResults[T any](ctx context.Context, req list.ListRequest, stream *list.ListResultsStream, items []T, diags diag.Diagnostics,
	fill func(*list.ListResult, T)) {
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i, item := range items {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			result := req.NewListResult(ctx)
			fill(&result, item)
			if !push(result) {
				return
			}
		}
	}
}
