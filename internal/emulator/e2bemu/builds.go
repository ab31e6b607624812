package e2bemu

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Build states (TemplateBuildStatus).
const (
	statusWaiting  = "waiting"
	statusBuilding = "building"
	statusReady    = "ready"
	statusError    = "error"
)

type build struct {
	id         string
	status     string
	createdAt  time.Time
	startedAt  time.Time
	finishedAt *time.Time
	cpu, mem   int
	tags       []string
	failReason string // set: the build ends in error with this reason
	logs       []buildLogEntry
}

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

func (s *Server) startBuild(w http.ResponseWriter, r *http.Request) {
	var req TemplateBuildStartV2
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.find(r.PathValue("templateID"))
	b := t.build(r.PathValue("buildID"))
	if b == nil {
		writeError(w, http.StatusNotFound, "build not found")
		return
	}
	if b.status != statusWaiting {
		writeError(w, http.StatusBadRequest, "build "+b.id+" was already started")
		return
	}
	now := s.now()
	b.status, b.startedAt = statusBuilding, now
	name := t.names[0]
	b.failReason = s.faults.takeBuildFailure(name)
	source := derefOr(req.FromImage, "")
	if source == "" {
		source = "template " + derefOr(req.FromTemplate, "")
	}
	b.log(now, "info", "base", "Building template %s from %s", t.id, source)
	for i, step := range req.Steps {
		b.log(now, "info", strconv.Itoa(i+1), "%s %s", step.Type, strings.Join(step.Args, " "))
	}
	if req.StartCmd != nil {
		b.log(now, "info", "finalize", "Start command: %s", *req.StartCmd)
	}
	s.starts = append(s.starts, BuildStart{TemplateID: t.id, BuildID: b.id, Name: name, Body: req, RegistryType: registryType(req.FromImageRegistry)})
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
	s.mu.Lock()
	t := s.find(r.PathValue("templateID"))
	b := t.build(r.PathValue("buildID"))
	if b == nil {
		s.mu.Unlock()
		writeError(w, http.StatusNotFound, "build not found")
		return
	}
	drop := s.faults.takeDrop(t.names[0])
	s.advance(t, b)
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
		info.Reason = &buildStatusReason{Message: b.failReason, Step: "1", LogEntries: errorEntries(b.logs)}
	}
	s.mu.Unlock()
	if drop {
		dropConnection(w)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// advance moves a started build on by the clock; callers hold s.mu.
func (s *Server) advance(t *tmpl, b *build) {
	if b.status != statusBuilding || s.faults.hangs(t.names[0]) || s.now().Sub(b.startedAt) < s.opts.BuildDuration {
		return
	}
	now := s.now()
	b.finishedAt = &now
	if b.failReason != "" {
		b.status = statusError
		b.log(now, "error", "1", "ERROR: %s", b.failReason)
		b.log(now, "error", "1", "Build failed: %s", b.failReason)
		return
	}
	b.status = statusReady
	b.log(now, "info", "finalize", "Template %s is ready", t.id)
	for _, tag := range b.tags {
		t.tags[tag] = b.id
	}
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

func (t *tmpl) build(id string) *build {
	if t == nil {
		return nil
	}
	for _, b := range t.builds {
		if b.id == id {
			return b
		}
	}
	return nil
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

func derefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}
