package daytonaemu

import (
	"cmp"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// getSnapshot is GET /snapshots/{id}: by name, or by id when it is a UUID (getSnapshotWithRegions).
func (s *Server) getSnapshot(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	idOrName := r.PathValue("id")
	sn := s.lookup(idOrName)
	if sn != nil {
		s.observe(sn)
	}
	if sn == nil || sn.Removed {
		// SnapshotReadAccessGuard: the 404 of a snapshot it cannot find by id or name
		return notFound("Snapshot with name " + idOrName + " not found")
	}
	writeJSON(w, http.StatusOK, sn.dto())
	return nil
}

// listSnapshots is GET /snapshots (snapshot.service.ts getAllSnapshots): ?name= matches part of
// the name, case-insensitively (ILike %name%); sorted by ?sort= (lastUsedAt by default) in
// ?order= (desc), nulls last, then newest first; ?page= from 1 and ?limit= up to 200 (100).
func (s *Server) listSnapshots(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, problems := queryInt(q.Get("page"), "page", 1, 1, 0)
	limit, more := queryInt(q.Get("limit"), "limit", 100, 1, 200)
	problems = append(problems, more...)
	sortField := cmp.Or(q.Get("sort"), "lastUsedAt")
	if !slices.Contains([]string{"name", "state", "lastUsedAt", "createdAt"}, sortField) {
		problems = append(problems, "sort must be one of the following values: name, state, lastUsedAt, createdAt")
	}
	order := cmp.Or(q.Get("order"), "desc")
	if order != "asc" && order != "desc" {
		problems = append(problems, "order must be one of the following values: asc, desc")
	}
	if len(problems) > 0 {
		return badRequest(strings.Join(problems, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := strings.ToLower(q.Get("name"))
	var items []*Snapshot
	for _, sn := range s.snapshots {
		if !sn.Removed {
			s.observe(sn)
		}
		if !sn.Removed && strings.Contains(strings.ToLower(sn.Name), name) {
			items = append(items, sn)
		}
	}
	slices.SortStableFunc(items, func(a, b *Snapshot) int {
		if c := compareBy(a, b, sortField, order == "desc"); c != 0 || sortField == "createdAt" {
			return c
		}
		return b.CreatedAt.Compare(a.CreatedAt)
	})
	total := len(items)
	start := min((page-1)*limit, total)
	out := []map[string]any{}
	for _, sn := range items[start:min(start+limit, total)] {
		out = append(out, sn.dto())
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out, "total": total, "page": page,
		"totalPages": int(math.Ceil(float64(total) / float64(limit)))})
	return nil
}

// compareBy orders a and b by field, nulls (a never used snapshot's lastUsedAt) last either way.
func compareBy(a, b *Snapshot, field string, desc bool) int {
	var c int
	switch field {
	case "name":
		c = strings.Compare(a.Name, b.Name)
	case "state":
		c = strings.Compare(a.State, b.State)
	case "createdAt":
		c = a.CreatedAt.Compare(b.CreatedAt)
	default:
		switch {
		case a.LastUsedAt == nil && b.LastUsedAt == nil:
			return 0
		case a.LastUsedAt == nil:
			return 1
		case b.LastUsedAt == nil:
			return -1
		}
		c = a.LastUsedAt.Compare(*b.LastUsedAt)
	}
	if desc {
		return -c
	}
	return c
}

// queryInt reads an integer query parameter as the PageNumber/PageLimit decorators validate it.
func queryInt(v, name string, def, lo, hi int) (int, []string) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	switch {
	case err != nil:
		return def, []string{name + " must be an integer number"}
	case n < lo:
		return def, []string{fmt.Sprintf("%s must not be less than %d", name, lo)}
	case hi > 0 && n > hi:
		return def, []string{fmt.Sprintf("%s must not be greater than %d", name, hi)}
	}
	return n, nil
}

// uuidParam is a route behind SnapshotAccessGuard then ParseUUIDPipe: the guard finds the
// snapshot by id or by name (404 otherwise), then the pipe refuses anything but a UUID with
// Nest's 400. Callers hold mu.
func (s *Server) uuidParam(r *http.Request) (*Snapshot, error) {
	id := r.PathValue("id")
	sn, err := s.guarded(id)
	if err != nil {
		return nil, err
	}
	if !isUUID(id) {
		return nil, badRequest("Validation failed (uuid is expected)")
	}
	return sn, nil
}

// removeSnapshot is DELETE /snapshots/{id} (removeSnapshot): by UUID only; the snapshot goes
// removing, and the snapshot manager deletes it once no runner holds it (the next read here).
// Its name stays taken until then.
func (s *Server) removeSnapshot(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn, err := s.uuidParam(r)
	if err != nil {
		return err
	}
	sn.next = nil
	s.setState(sn, step{state: StateRemoving})
	w.WriteHeader(http.StatusOK)
	return nil
}

// activationCooldown is the time after a deactivation during which activation is refused
// (snapshot.service.ts activateSnapshot: 10 minutes since the last update).
const activationCooldown = 10 * time.Minute

// activateSnapshot is POST /snapshots/{id}/activate (activateSnapshot): only an inactive snapshot,
// not within the cooldown; it goes pending, then through its pull or build again to active.
func (s *Server) activateSnapshot(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn, err := s.uuidParam(r)
	if err != nil {
		return err
	}
	switch {
	case sn.State == StateActive:
		return badRequest(fmt.Sprintf("Snapshot %s is already active", sn.ID))
	case sn.State != StateInactive:
		return badRequest(fmt.Sprintf("Snapshot %s cannot be activated - it is in %s state", sn.ID, sn.State))
	case s.now().Sub(sn.UpdatedAt) < activationCooldown:
		return badRequest("Snapshot deactivation is still in progress. Please try again in a few minutes.")
	}
	if err := s.quotaProblem(createSnapshotRequest{}); err != nil {
		return err
	}
	again := StatePulling
	if sn.BuildInfo != nil {
		again = StateBuilding
	}
	s.setState(sn, step{state: StatePending})
	sn.next = []step{{state: again}, {state: StateActive}}
	writeJSON(w, http.StatusOK, sn.dto())
	return nil
}

// deactivateSnapshot is POST /snapshots/{id}/deactivate (deactivateSnapshot): inactive, 204; the
// cron deactivate-old-snapshots does the same to snapshots unused for 14 days (Deactivate).
func (s *Server) deactivateSnapshot(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn, err := s.uuidParam(r)
	if err != nil {
		return err
	}
	if sn.State != StateInactive {
		sn.next = nil
		s.setState(sn, step{state: StateInactive})
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// byID is snapshot.service.ts getSnapshot: by id only; a name is not a UUID, which Postgres
// refuses (a 500). Callers hold mu.
func (s *Server) byID(id string) (*Snapshot, error) {
	if !isUUID(id) {
		return nil, &httpError{http.StatusInternalServerError, "An unexpected error occurred."}
	}
	for _, sn := range s.snapshots {
		if !sn.Removed && sn.ID == id {
			return sn, nil
		}
	}
	return nil, notFound("Snapshot " + id + " not found")
}

// buildLogsURL is GET /snapshots/{id}/build-logs-url (getSnapshotBuildLogsUrl): 404 for a
// snapshot without build info (one from an image has no build log), else the region proxy's
// build-logs address.
func (s *Server) buildLogsURL(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.guarded(r.PathValue("id")); err != nil {
		return err
	}
	sn, err := s.byID(r.PathValue("id"))
	if err != nil {
		return err
	}
	if sn.BuildInfo == nil {
		return notFound(fmt.Sprintf("Snapshot %s has no build info", r.PathValue("id")))
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": baseURL(r) + proxyPath + "/snapshots/" + sn.ID + "/build-logs"})
	return nil
}

// buildLogs streams a build's log as text, one line each, and ends: the emulated build has
// already run, so ?follow=true has nothing more to wait for.
func (s *Server) buildLogs(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	sn, err := s.byID(r.PathValue("id"))
	var lines []string
	if err == nil {
		if sn.BuildInfo == nil {
			err = notFound(fmt.Sprintf("Snapshot %s has no build info", sn.ID))
		}
		lines = slices.Clone(sn.log)
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	for _, line := range lines {
		_, _ = fmt.Fprintln(w, line)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	return nil
}
