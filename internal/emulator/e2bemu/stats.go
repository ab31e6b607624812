package e2bemu

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// StatsPath serves the emulator's own counters for benchmarks (internal/bench). It is answered
// before auth and fault injection and is not recorded, so reading it never skews what it counts.
const StatsPath = "/_emulator/stats"

// Stats is what StatsPath answers.
type Stats struct {
	// Total is the number of requests recorded since the server started; pass it back as
	// ?since=<Total> to count only what a later operation sends.
	Total int `json:"total"`
	// Since is the offset the counts start at.
	Since int `json:"since"`
	// Requests counts the requests after Since by "METHOD route", the route being the pattern
	// that served it (e.g. "GET /templates/{templateID}"), or the raw path when none did.
	Requests map[string]int `json:"requests"`
	// BuildDuration is the emulator's -build-duration.
	BuildDuration string `json:"build_duration"`
	// Builds lists the builds of the templates that still exist, in creation order.
	Builds []BuildStats `json:"builds"`
}

// BuildStats is one build's timeline.
type BuildStats struct {
	Template   string     `json:"template"`
	TemplateID string     `json:"template_id"`
	BuildID    string     `json:"build_id"`
	Status     string     `json:"status"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	// ReadyAt is when the build ended by the emulator's clock (started + build duration): the
	// moment a client could first have seen it finished. Set only once a read has seen it so.
	ReadyAt *time.Time `json:"ready_at,omitempty"`
	// ObservedAt is when a status poll (or a read of the template's builds) first found the build
	// finished, so ObservedAt - ReadyAt is the client's polling delay.
	ObservedAt *time.Time `json:"observed_at,omitempty"`
}

// Stats returns the counters StatsPath serves, counting requests from offset since.
func (s *Server) Stats(since int) Stats {
	s.mu.Lock()
	reqs := s.requests
	st := Stats{Total: len(reqs), Since: min(max(since, 0), len(reqs)), Requests: map[string]int{},
		BuildDuration: s.buildDuration.String(), Builds: []BuildStats{}}
	reqs = reqs[st.Since:]
	for _, t := range s.templates {
		if t.deleted {
			continue
		}
		for _, b := range t.builds {
			st.Builds = append(st.Builds, s.buildStats(t, b))
		}
	}
	s.mu.Unlock()
	// Routing needs no lock: the mux is read-only once New has registered the routes.
	for _, r := range reqs {
		st.Requests[s.route(r.Method, r.Path)]++
	}
	return st
}

// buildStats reports a build without advancing it, so reading stats never changes a build; callers hold s.mu.
func (s *Server) buildStats(t *tmpl, b *build) BuildStats {
	bs := BuildStats{Template: t.alias, TemplateID: t.id, BuildID: b.id, Status: b.status, CreatedAt: b.createdAt}
	if !b.startedAt.IsZero() {
		started := b.startedAt
		bs.StartedAt = &started
	}
	if b.finishedAt != nil && b.observedAt != nil { // a build ends at its due time; a read observes it later
		bs.ReadyAt, bs.ObservedAt = b.finishedAt, b.observedAt
	}
	return bs
}

// route names a request by the mux pattern that serves it: "METHOD /path/{param}".
func (s *Server) route(method, path string) string {
	_, pattern := s.mux.Handler(&http.Request{Method: method, Host: "emulator", URL: &url.URL{Path: path}})
	if pattern == "" || !strings.Contains(pattern, " ") || strings.HasSuffix(pattern, " /") {
		return method + " " + path // unrouted, or a catch-all: the path says more than "/"
	}
	if pattern == aliasOrTagsPattern { // one mux pattern serves two API routes: name the one asked for
		if strings.HasPrefix(path, "/templates/aliases/") {
			return "GET /templates/aliases/{alias}"
		}
		return "GET /templates/{templateID}/tags"
	}
	return pattern
}

// aliasOrTagsPattern is the pattern routes() registers for both GET /templates/aliases/{alias}
// and GET /templates/{templateID}/tags.
const aliasOrTagsPattern = "GET /templates/{first}/{second}"

// serveStats answers StatsPath: GET only, ?since=<n> optional.
func (s *Server) serveStats(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		writeError(w, http.StatusMethodNotAllowed, "only GET "+StatsPath)
		return
	}
	since := 0
	if v := r.URL.Query().Get("since"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, "since must be a non-negative integer")
			return
		}
		since = n
	}
	writeJSON(w, http.StatusOK, s.Stats(since))
}
