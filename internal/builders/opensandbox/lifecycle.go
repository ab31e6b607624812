package opensandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// snapshotPageSize stays under the server's cap of 200 for GET /snapshots (and /sandboxes).
const snapshotPageSize = 100

// maxSnapshotPages bounds paging (of /sandboxes too), in case a server keeps answering hasNextPage.
const maxSnapshotPages = 1000

func (c *client) createSandbox(ctx context.Context, req createSandboxRequest) (sandbox, error) {
	var out sandbox
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandboxes", In: req, Out: &out, Secrets: req.secrets(),
		Finish: apihttp.CreateFinish}) // the builder sandbox is deleted on every path only once its id is known
	if err == nil {
		err = createdID("POST /sandboxes", "sandbox", out.ID)
	}
	return out, err
}

// createdID checks the id a create answered with: every later request about the object puts it
// in its path, so none would poll and delete the list ("/sandboxes/"), and "." or ".." the
// collection or its parent.
func createdID(request, object, id string) error {
	if id == "" || id == "." || id == ".." {
		return fmt.Errorf("%w: OpenSandbox answered %s without a usable %s id (%q), so the provider cannot follow or delete it",
			builders.ErrBadAnswer, request, object, id)
	}
	return nil
}

func (c *client) getSandbox(ctx context.Context, id string) (sandbox, error) {
	var out sandbox
	return out, c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/sandboxes/" + url.PathEscape(id), Out: &out})
}

func (c *client) deleteSandbox(ctx context.Context, id string) error {
	return c.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/sandboxes/" + url.PathEscape(id)})
}

// listSandboxes pages through GET /sandboxes?metadata=k=v&... (every label must match; none:
// every sandbox).
func (c *client) listSandboxes(ctx context.Context, labels map[string]string) ([]sandbox, error) {
	filter := url.Values{}
	for key, value := range labels {
		filter.Set(key, value)
	}
	var all []sandbox
	for page := 1; page <= maxSnapshotPages; page++ {
		query := url.Values{"page": {strconv.Itoa(page)}, "pageSize": {strconv.Itoa(snapshotPageSize)}}
		if len(filter) > 0 {
			query.Set("metadata", filter.Encode())
		}
		var list sandboxList
		if err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/sandboxes", Query: query, Out: &list}); err != nil {
			return nil, err
		}
		all = append(all, list.Items...)
		if !list.Pagination.HasNextPage || len(list.Items) == 0 {
			break
		}
	}
	return all, nil
}

func (c *client) endpoint(ctx context.Context, sandboxID string, port int) (endpoint, error) {
	var out endpoint
	path := "/sandboxes/" + url.PathEscape(sandboxID) + "/endpoints/" + strconv.Itoa(port)
	return out, c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: path, Out: &out})
}

func (c *client) createSnapshot(ctx context.Context, sandboxID, name string) (snapshot, error) {
	var out snapshot
	body := map[string]string{"name": name}
	err := c.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandboxes/" + url.PathEscape(sandboxID) + "/snapshots", In: body, Out: &out,
		Finish: apihttp.CreateFinish}) // a snapshot state does not know of would be a template no state records
	if err == nil {
		err = createdID("POST /sandboxes/{id}/snapshots", "snapshot", out.ID)
	}
	return out, err
}

func (c *client) getSnapshot(ctx context.Context, id string) (snapshot, error) {
	var out snapshot
	return out, c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots/" + url.PathEscape(id), Out: &out})
}

func (c *client) deleteSnapshot(ctx context.Context, id string) error {
	return c.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/snapshots/" + url.PathEscape(id)})
}

// snapshotsNamed pages through GET /snapshots?name= and keeps those named name, optionally only in
// the given states (filtered by the server). Servers before OpenSandbox PR #1301 (2026-07) ignore
// ?name= and list every snapshot, so the name is filtered here as well.
func (c *client) snapshotsNamed(ctx context.Context, name string, states ...string) ([]snapshot, error) {
	var named []snapshot
	for page := 1; page <= maxSnapshotPages; page++ {
		query := url.Values{"name": {name}, "page": {strconv.Itoa(page)}, "pageSize": {strconv.Itoa(snapshotPageSize)}}
		if len(states) > 0 {
			query["state"] = states
		}
		var list snapshotList
		if err := c.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/snapshots", Query: query, Out: &list}); err != nil {
			return nil, err
		}
		for _, s := range list.Items {
			if s.Name == name {
				named = append(named, s)
			}
		}
		if !list.Pagination.HasNextPage || len(list.Items) == 0 {
			break
		}
	}
	return named, nil
}
