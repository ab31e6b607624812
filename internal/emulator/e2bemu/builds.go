package e2bemu

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Build states (TemplateBuildStatus).
const (
	statusWaiting  = "waiting"
	statusBuilding = "building"
	statusReady    = "ready"
	statusError    = "error"
)

// cancelledReason is builderrors.ErrCanceled, the reason of a build another build's start cancelled.
const cancelledReason = "build was cancelled"

type build struct {
	id         string
	status     string
	createdAt  time.Time
	startedAt  time.Time
	duration   time.Duration // how long it builds once started
	releasedAt time.Time     // when a hung build was let go
	finishedAt *time.Time
	observedAt *time.Time // when a client first read it finished
	cpu, mem   int
	tags       []string
	plan       outcome // decided when the build starts
	request    []byte  // the start's body, as received
	minFreeMB  *int    // minFreeDiskMb at registration
	reason     buildStatusReason
	logs       []buildLogEntry
}

func (b *build) active() bool { return b.status == statusWaiting || b.status == statusBuilding }

func (b *build) updatedAt() time.Time {
	if b.finishedAt != nil {
		return *b.finishedAt
	}
	if !b.startedAt.IsZero() {
		return b.startedAt
	}
	return b.createdAt
}

func (b *build) log(at time.Time, level, step, format string, args ...any) {
	b.logs = append(b.logs, buildLogEntry{Timestamp: at, Level: level, Step: step, Message: fmt.Sprintf(format, args...)})
}

// fail ends the build in error with reason (and the step it failed at, "" for none), logged as
// the orchestrator's builder logs it.
func (b *build) fail(at time.Time, reason, step string) {
	b.log(at, "error", step, "Build failed: %s", reason)
	b.end(at, reason, step)
}

// end ends the build in error without a log line: the API sets the status itself when no builder
// ran (template-manager/create_template.go SetStatus).
func (b *build) end(at time.Time, reason, step string) {
	b.status, b.finishedAt = statusError, &at
	b.reason = buildStatusReason{Message: reason, Step: step, LogEntries: errorEntries(b.logs)}
}

// observe records when a client first read the build finished (for Stats).
func (b *build) observe(now time.Time) {
	if b.finishedAt != nil && b.observedAt == nil {
		b.observedAt = &now
	}
}

// startBuild is handlers/template_start_build_v2.go.
func (s *Server) startBuild(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	r.Body = readCloser(raw)
	var req TemplateBuildStartV2
	if !decode(w, r, &req) {
		return
	}
	buildID := r.PathValue("buildID")
	if !uuidRegex.MatchString(buildID) {
		writeError(w, http.StatusBadRequest, "Invalid build ID: "+buildID)
		return
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.byID(r.PathValue("templateID"))
	b := t.build(buildID)
	if b == nil || t.foreign || !t.assigned(b.id) { // get_template_build.sql joins the tag assignments
		writeError(w, http.StatusNotFound, "Error when getting template: no rows in result set")
		return
	}
	now := s.now()
	// CheckAndCancelConcurrentBuilds runs before the waiting check: even a refused start cancels. It
	// cancels the running builds that share a tag with this one (get_concurrent_template_builds.sql),
	// so a build under other tags (a candidate, without default) leaves the default one running.
	for _, other := range t.builds {
		if other != b && other.status == statusBuilding && t.shareTag(other.id, b.id) {
			other.fail(now, cancelledReason, "")
		}
	}
	if b.status != statusWaiting {
		writeError(w, http.StatusBadRequest, "build is not in waiting state")
		return
	}
	if s.refuseSteps && len(req.Steps) > 0 {
		writeError(w, http.StatusBadRequest, "steps are not supported")
		return
	}
	// template-manager/create_template.go CreateTemplate: a source setTemplateSource refuses fails
	// the build (its deferred SetStatus) and the start answers 500.
	if problem := req.sourceProblem(); problem != "" {
		b.end(now, "error when building env: failed to set template source: "+problem, "")
		writeError(w, http.StatusInternalServerError, "Error when starting template build: failed to set template source: "+problem)
		return
	}
	b.startedAt, b.duration = now, s.buildDuration
	if base, refused := s.buildBase(req); refused != "" {
		b.end(now, refused, "base") // a FromTemplateError: failed at once, after the 202, no builder ran
	} else {
		b.status, b.plan = statusBuilding, s.planBuild(t, req, base)
		b.logs = append(b.logs, b.plan.logs(now)...)
	}
	b.request = raw
	s.starts = append(s.starts, BuildStart{TemplateID: t.id, BuildID: b.id, Name: t.alias, Body: req, RawBody: raw,
		RegistryType: registryType(req.FromImageRegistry)})
	w.WriteHeader(http.StatusAccepted)
}

func (s *Server) buildStatus(w http.ResponseWriter, r *http.Request) {
	offset, err := queryInt(r, "logsOffset", 0)
	limit, limitErr := queryInt(r, "limit", 100)
	if err != nil || limitErr != nil || offset < 0 || limit < 0 || limit > 100 {
		writeError(w, http.StatusBadRequest, "logsOffset and limit must be integers, 0 <= limit <= 100")
		return
	}
	minLevel, ok := logLevels[r.URL.Query().Get("level")]
	if !ok {
		writeError(w, http.StatusBadRequest, "level must be one of debug, info, warn, error")
		return
	}
	buildID := r.PathValue("buildID")
	if !uuidRegex.MatchString(buildID) {
		writeError(w, http.StatusBadRequest, "Invalid build id")
		return
	}
	s.lock()
	// handlers/template_build_status.go: a build of a live template, reached through a tag
	// assignment (get_template_build.sql); otherwise 400, not 404.
	t := s.byID(r.PathValue("templateID"))
	b := t.build(buildID)
	if b == nil || t.foreign || !t.assigned(b.id) {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Build '%s' not found", buildID))
		return
	}
	drop := s.faults.takeDrop(t.alias)
	if !drop {
		b.observe(s.now())
	}
	info := templateBuildInfo{TemplateID: t.id, BuildID: b.id, Status: b.status, Logs: []string{}, LogEntries: []buildLogEntry{}}
	// logsOffset indexes all of the build's entries, so a poller's offset survives a level filter.
	for i := offset; i < len(b.logs) && len(info.LogEntries) < limit; i++ {
		if logLevels[b.logs[i].Level] < minLevel {
			continue
		}
		info.LogEntries = append(info.LogEntries, b.logs[i])
		info.Logs = append(info.Logs, b.logs[i].Message)
	}
	if b.status == statusError {
		reason := b.reason
		info.Reason = &reason
	}
	s.mu.Unlock()
	if drop {
		dropConnection(w)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// advance ends a started build once its duration has passed (and it is not hung); callers hold s.mu.
func (s *Server) advance(t *tmpl, b *build) {
	if b.status != statusBuilding || s.faults.hangs(t.alias) {
		return
	}
	due := b.startedAt.Add(b.duration)
	if b.releasedAt.After(due) {
		due = b.releasedAt
	}
	if s.now().Before(due) {
		return
	}
	for _, key := range b.plan.built { // saved as each layer is built, a failed build's too
		s.layers[key] = true
		if st, ok := b.plan.states[key]; ok {
			s.layerStates[key] = st
		}
	}
	if b.plan.failure != "" {
		b.fail(due, b.plan.failure, b.plan.failedStep)
		return
	}
	b.status, b.finishedAt = statusReady, &due
	b.log(due, "info", "finalize", "Template is ready")
}

// logLevels orders LogLevel; the empty level (no filter) admits everything.
var logLevels = map[string]int{"": 0, "debug": 0, "info": 1, "warn": 2, "error": 3}

func errorEntries(logs []buildLogEntry) []buildLogEntry {
	out := []buildLogEntry{}
	for _, e := range logs {
		if e.Level == "error" {
			out = append(out, e)
		}
	}
	return out
}

func registryType(r *FromImageRegistry) string {
	if r == nil {
		return ""
	}
	return r.Type
}

func queryInt(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	return strconv.Atoi(v)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
