package e2bemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Request is one request as received (the API key header is redacted).
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

// BuildStart is one build start as received.
type BuildStart struct {
	TemplateID   string
	BuildID      string
	Name         string
	Body         TemplateBuildStartV2
	RawBody      []byte // the body as received, byte for byte
	RegistryType string // "", "registry", "aws" or "gcp"
}

// TemplateInfo is what the emulator holds for a template.
type TemplateInfo struct {
	TemplateID string   `json:"template_id"`
	Names      []string `json:"names"`
	// Tags are the tags assigned to any build, whatever its status: E2B assigns them when a build
	// is requested. ReadyTags are those a sandbox could start from (a ready build carries them).
	Tags      []string `json:"tags"`
	ReadyTags []string `json:"ready_tags"`
	// BuildStatus is the status of the newest build.
	BuildStatus string      `json:"build_status"`
	CPUCount    int         `json:"cpu_count"`
	MemoryMB    int         `json:"memory_mb"`
	Sandboxes   int         `json:"sandboxes"`
	Builds      []BuildInfo `json:"builds"`
}

// BuildInfo is one build of a template, oldest first in TemplateInfo.Builds.
type BuildInfo struct {
	BuildID string   `json:"build_id"`
	Status  string   `json:"status"`
	Tags    []string `json:"tags"`
	// Reason and Step say why a build ended in error.
	Reason string `json:"reason,omitempty"`
	Step   string `json:"step,omitempty"`
	// StartCmd and ReadyCmd are the start metadata the build gives its template (the request's,
	// or those inherited from fromTemplate); HasStart is false when nothing is started.
	StartCmd string `json:"start_cmd,omitempty"`
	ReadyCmd string `json:"ready_cmd,omitempty"`
	HasStart bool   `json:"has_start"`
	// MinFreeDiskMB is the registration's minFreeDiskMb (nil: not sent).
	MinFreeDiskMB *int `json:"min_free_disk_mb,omitempty"`
	// Request is the build start's body as the client sent it (null before the start).
	Request json.RawMessage `json:"request,omitempty"`
	// Layers are the layers the build went through, as far as it got, each cached or built.
	Layers []LayerInfo `json:"layers"`
}

// record keeps r, with its body only when keepBody, and returns the body.
func (s *Server) record(r *http.Request, keepBody bool) []byte {
	body, _ := io.ReadAll(r.Body)
	header := r.Header.Clone()
	if header.Get("X-API-Key") != "" {
		header.Set("X-API-Key", "[REDACTED]")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := body
	if !keepBody {
		kept = nil
	}
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: header, Body: kept})
	return body
}

func readCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

// Requests returns every request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// CountRequests counts requests with this method (any, when empty) whose path starts with pathPrefix.
func (s *Server) CountRequests(method, pathPrefix string) int {
	n := 0
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, pathPrefix) {
			n++
		}
	}
	return n
}

// BuildStarts returns every build start received so far.
func (s *Server) BuildStarts() []BuildStart {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]BuildStart(nil), s.starts...)
}

// Template reports a live template by id or alias (the team's own first, then another team's).
func (s *Server) Template(name string) (TemplateInfo, bool) {
	s.lock()
	defer s.mu.Unlock()
	t := s.resolve(name)
	if t == nil {
		return TemplateInfo{}, false
	}
	info := TemplateInfo{TemplateID: t.id, Names: s.names(t), Tags: []string{}, ReadyTags: []string{},
		CPUCount: t.cpu, MemoryMB: t.mem, Sandboxes: t.sandboxes, Builds: []BuildInfo{}}
	for _, a := range t.assignments {
		if !slices.Contains(info.Tags, a.tag) {
			info.Tags = append(info.Tags, a.tag)
		}
		if t.readyBuild(a.tag) != nil && !slices.Contains(info.ReadyTags, a.tag) {
			info.ReadyTags = append(info.ReadyTags, a.tag)
		}
	}
	slices.Sort(info.Tags)
	slices.Sort(info.ReadyTags)
	for _, b := range t.builds {
		info.BuildStatus = b.status
		info.Builds = append(info.Builds, BuildInfo{BuildID: b.id, Status: b.status, Tags: b.tags, Reason: b.reason.Message,
			Step: b.reason.Step, StartCmd: b.plan.startCmd, ReadyCmd: b.plan.readyCmd, HasStart: b.plan.hasStart,
			MinFreeDiskMB: b.minFreeMB, Request: b.request, Layers: append([]LayerInfo{}, b.plan.layers...)})
	}
	return info, true
}

// DeleteTemplateOutOfBand deletes a template as someone outside Terraform would (a soft delete,
// as DELETE /templates/{templateID} does).
func (s *Server) DeleteTemplateOutOfBand(name string) bool {
	s.lock()
	defer s.mu.Unlock()
	t := s.resolve(name)
	if t == nil || t.foreign {
		return false
	}
	s.softDelete(t)
	return true
}

// SeedForeignTemplate adds a ready template that another E2B team owns under a namespace-less
// (promoted) alias. As on E2B, this team's alias check and tag list answer 403 for it, public or
// not, and creating a template under the same name creates the team's own, in its namespace.
func (s *Server) SeedForeignTemplate(name string, public bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.seedTemplate(name, true)
	t.public = public
	s.seedBuild(t, "")
}

// SeedReadyTemplate adds a template of the team with one ready build tagged default, as an earlier
// pipeline would leave it; seeding it again adds a newer ready build, as a rebuild would.
func (s *Server) SeedReadyTemplate(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seedBuild(s.seedTemplate(name, false), "")
}

// SeedFailedTemplate adds to the team's template name (created when missing) a newer build tagged
// default that failed with reason at step "base", as a failed pipeline run leaves it: the tag is
// assigned, yet it resolves only to an earlier ready build, if there is one.
func (s *Server) SeedFailedTemplate(name, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seedBuild(s.seedTemplate(name, false), reason)
}

// seedTemplate returns the live template named name of the team (or of another team, foreign),
// created when missing; callers hold s.mu.
func (s *Server) seedTemplate(name string, foreign bool) *tmpl {
	for _, t := range s.templates {
		if !t.deleted && t.foreign == foreign && t.alias == name {
			return t
		}
	}
	now := s.now()
	t := &tmpl{id: newID()[:20], alias: name, foreign: foreign, createdAt: now, updatedAt: now, cpu: defaultCPU, mem: defaultMemory}
	s.templates = append(s.templates, t)
	return t
}

// seedBuild adds a finished build tagged default to t: ready, or failed with failure; callers hold s.mu.
func (s *Server) seedBuild(t *tmpl, failure string) {
	now := s.now()
	b := &build{id: newUUID(), status: statusReady, createdAt: now, startedAt: now, finishedAt: &now, observedAt: &now,
		cpu: defaultCPU, mem: defaultMemory, tags: []string{defaultTag}}
	if failure != "" {
		b.fail(now, failure, "base")
	}
	t.builds, t.updatedAt = append(t.builds, b), now
	t.assignments = append(t.assignments, assignment{tag: defaultTag, buildID: b.id, createdAt: now})
}

// SeedSandboxes sets how many running sandboxes use the team's template name (0: none), which
// makes deleting it fail; it reports whether the template exists.
func (s *Server) SeedSandboxes(name string, running int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.resolve(name)
	if t == nil || t.foreign {
		return false
	}
	t.sandboxes = running
	return true
}
