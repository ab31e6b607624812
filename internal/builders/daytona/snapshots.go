package daytona

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

// The snapshot endpoints (snapshot.controller.ts; openapi-specs/api.json /snapshots).

const (
	snapshotPageSize = 200 // the spec's maximum limit
	maxSnapshotPages = 50
)

// getSnapshot is GET /snapshots/{id or name}; found is false on 404.
func (c *client) getSnapshot(ctx context.Context, idOrName string) (s snapshot, found bool, err error) {
	err = c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots/" + url.PathEscape(idOrName), Out: &s})
	if apihttp.IsNotFound(err) {
		return snapshot{}, false, nil
	}
	if err != nil {
		return snapshot{}, false, builders.AtStageIfBare(builders.StageTemplateLookup, fmt.Errorf("reading snapshot %s: %w", idOrName, err))
	}
	return s, true, nil
}

// listSnapshots returns the organization's snapshots whose name holds contains (the server
// matches it with ILIKE %...%, where '_' matches any character: callers filter exactly). General
// snapshots (Daytona's own, shared by every organization) are left out.
func (c *client) listSnapshots(ctx context.Context, contains string) ([]snapshot, error) {
	var all []snapshot
	for page := 1; page <= maxSnapshotPages; page++ {
		query := url.Values{"page": {strconv.Itoa(page)}, "limit": {strconv.Itoa(snapshotPageSize)}, "sort": {"createdAt"}, "order": {"desc"}}
		if contains != "" {
			query.Set("name", contains)
		}
		var got snapshotPage
		if err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots", Query: query, Out: &got, MaxItems: snapshotPageSize}); err != nil {
			return nil, builders.AtStageIfBare(builders.StageTemplateLookup, fmt.Errorf("listing snapshots: %w", err))
		}
		for _, s := range got.Items {
			if !s.General {
				all = append(all, s)
			}
		}
		if page >= got.TotalPages || len(got.Items) == 0 {
			break
		}
	}
	return all, nil
}

// builds are the snapshots built here for templateID, newest first.
func (c *client) builds(ctx context.Context, templateID string) ([]snapshot, error) {
	listed, err := c.listSnapshots(ctx, templateID+inputsMark)
	if err != nil {
		return nil, err
	}
	var own []snapshot
	for _, s := range listed {
		if _, ok := parseName(templateID, s.Name); ok {
			own = append(own, s)
		}
	}
	slices.SortStableFunc(own, func(a, b snapshot) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return own, nil
}

// createSnapshot is POST /snapshots. It is not retried but on 429: a repeated create that reached
// the server would answer 409 for the snapshot it made (the caller adopts it by name instead).
func (c *client) createSnapshot(ctx context.Context, req createSnapshot, secrets []builders.Secret) (snapshot, error) {
	var s snapshot
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/snapshots", In: req, Out: &s, Secrets: secrets,
		Retry: apihttp.RetryOnly429, Finish: apihttp.CreateFinish})
	return s, err
}

// deleteSnapshot is DELETE /snapshots/{id}: by id only (ParseUUIDPipe); gone is no error.
func (c *client) deleteSnapshot(ctx context.Context, id string) error {
	err := c.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/snapshots/" + url.PathEscape(id)})
	if apihttp.IsNotFound(err) {
		return nil
	}
	return err
}

// activateSnapshot is POST /snapshots/{id}/activate.
func (c *client) activateSnapshot(ctx context.Context, id string) (snapshot, error) {
	var s snapshot
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/snapshots/" + url.PathEscape(id) + "/activate", Out: &s,
		Retry: apihttp.RetryOnly429})
	return s, err
}
