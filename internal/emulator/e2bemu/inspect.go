package e2bemu

import (
	"bytes"
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
	RegistryType string // "", "registry", "aws" or "gcp"
}

// TemplateInfo is what the emulator holds for a template.
type TemplateInfo struct {
	TemplateID  string
	Names       []string
	Tags        []string
	BuildStatus string
	CPUCount    int
	MemoryMB    int
}

func (s *Server) record(r *http.Request) []byte {
	body, _ := io.ReadAll(r.Body)
	header := r.Header.Clone()
	if header.Get("X-API-Key") != "" {
		header.Set("X-API-Key", "[REDACTED]")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: header, Body: body})
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

// Template reports a template by id or name.
func (s *Server) Template(name string) (TemplateInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.find(name)
	if t == nil {
		return TemplateInfo{}, false
	}
	last := t.builds[len(t.builds)-1]
	s.advance(t, last)
	info := TemplateInfo{TemplateID: t.id, Names: append([]string(nil), t.names...), BuildStatus: last.status, CPUCount: t.cpu, MemoryMB: t.mem}
	for tag := range t.tags {
		info.Tags = append(info.Tags, tag)
	}
	slices.Sort(info.Tags)
	return info, true
}

// DeleteTemplateOutOfBand deletes a template as someone outside Terraform would.
func (s *Server) DeleteTemplateOutOfBand(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.remove(name)
}

// SeedForeignTemplate adds a ready template under an alias another E2B team owns. As on E2B, its
// alias check answers 403, public or not, and its tags answer when it is public (any team may start
// sandboxes from a public template) and 403 otherwise. Building under that alias is not modelled.
func (s *Server) SeedForeignTemplate(name string, public bool) {
	s.SeedReadyTemplate(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.find(name)
	t.foreign, t.public = true, public
}

// SeedReadyTemplate adds a template with one ready, tagged build, as an earlier pipeline would leave it.
func (s *Server) SeedReadyTemplate(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	b := &build{id: newUUID(), status: statusReady, createdAt: now, startedAt: now, finishedAt: &now, cpu: 2, mem: 1024}
	if t := s.find(name); t != nil { // seeding twice adds a newer ready build, as a rebuild would
		t.builds, t.tags[defaultTag], t.updatedAt = append(t.builds, b), b.id, now
		return
	}
	s.templates = append(s.templates, &tmpl{id: newID()[:20], names: []string{name}, cpu: 2, mem: 1024,
		createdAt: now, updatedAt: now, builds: []*build{b}, tags: map[string]string{defaultTag: b.id}})
}
