package e2bemu

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// tmpl is a template and its builds. names[0] is its alias.
type tmpl struct {
	id        string
	names     []string
	public    bool
	foreign   bool // another team's (SeedForeignTemplate): this key sees its tags only when it is public
	cpu, mem  int
	createdAt time.Time
	updatedAt time.Time
	builds    []*build
	tags      map[string]string // tag -> build id
}

const defaultTag = "default"

// find returns the template with this id or name; callers hold s.mu.
func (s *Server) find(idOrName string) *tmpl {
	for _, t := range s.templates {
		if t.id == idOrName || slices.Contains(t.names, idOrName) {
			return t
		}
	}
	return nil
}

// foundTemplate returns the template with this id or name, or answers 404 and returns nil; callers hold s.mu.
func (s *Server) foundTemplate(w http.ResponseWriter, idOrName string) *tmpl {
	t := s.find(idOrName)
	if t == nil {
		writeError(w, http.StatusNotFound, "template not found")
	}
	return t
}

func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request) {
	var req templateBuildRequestV3
	if !decode(w, r, &req) {
		return
	}
	name := req.Name
	if name == "" {
		name = req.Alias
	}
	name, tag, _ := strings.Cut(name, ":")
	if name == "" {
		writeError(w, http.StatusBadRequest, "name is required")
		return
	}
	tags := req.Tags
	if tag != "" {
		tags = append(tags, tag)
	}
	if len(tags) == 0 {
		tags = []string{defaultTag}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	t := s.find(name)
	if t == nil {
		t = &tmpl{id: newID()[:20], names: []string{name}, createdAt: now, tags: map[string]string{}}
		s.templates = append(s.templates, t)
	}
	t.cpu, t.mem, t.updatedAt = valueOr(req.CPUCount, 2), valueOr(req.MemoryMB, 1024), now
	b := &build{id: newUUID(), status: statusWaiting, createdAt: now, cpu: t.cpu, mem: t.mem, tags: tags}
	t.builds = append(t.builds, b)
	writeJSON(w, http.StatusAccepted, templateRequestResponseV3{
		TemplateID: t.id, BuildID: b.id, Public: t.public, Aliases: t.names, Names: t.names, Tags: tags})
}

func (s *Server) listTemplates(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []template{}
	for _, t := range s.templates {
		if t.foreign {
			continue // the list holds the team's own templates
		}
		last := t.builds[len(t.builds)-1]
		s.advance(t, last)
		buildID := t.latestReady() // the spec: "the last successful build"
		if buildID == "" {
			buildID = last.id
		}
		out = append(out, template{TemplateID: t.id, BuildID: buildID, CPUCount: t.cpu, MemoryMB: t.mem, DiskSizeMB: 5120,
			Public: t.public, Aliases: t.names, Names: t.names, CreatedAt: t.createdAt, UpdatedAt: t.updatedAt,
			BuildCount: len(t.builds), EnvdVersion: "0.2.0", BuildStatus: last.status})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getTemplate(w http.ResponseWriter, r *http.Request) {
	first, limit, ok := page(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "limit must be 1..100 and nextToken one this server gave")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.foundTemplate(w, r.PathValue("templateID"))
	if t == nil {
		return
	}
	out := templateWithBuilds{TemplateID: t.id, Public: t.public, Aliases: t.names, Names: t.names,
		CreatedAt: t.createdAt, UpdatedAt: t.updatedAt, Builds: []templateBuild{}}
	for i, b := range t.builds {
		s.advance(t, b)
		if i < first || i >= first+limit {
			continue
		}
		out.Builds = append(out.Builds, templateBuild{BuildID: b.id, Status: b.status, CreatedAt: b.createdAt,
			UpdatedAt: b.updatedAt(), FinishedAt: b.finishedAt, CPUCount: b.cpu, MemoryMB: b.mem})
	}
	if first+limit < len(t.builds) {
		w.Header().Set("X-Next-Token", strconv.Itoa(first+limit))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) updateTemplate(w http.ResponseWriter, r *http.Request) {
	var req templateUpdateRequest
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.foundTemplate(w, r.PathValue("templateID"))
	if t == nil {
		return
	}
	if req.Public != nil {
		t.public = *req.Public
	}
	t.updatedAt = s.now()
	if strings.HasPrefix(r.URL.Path, "/v2/") {
		writeJSON(w, http.StatusOK, templateUpdateResponse{Names: t.names})
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.remove(r.PathValue("templateID")) {
		writeError(w, http.StatusNotFound, "template not found")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// remove deletes a template by id or name; callers hold s.mu.
func (s *Server) remove(idOrName string) bool {
	t := s.find(idOrName)
	if t == nil {
		return false
	}
	s.templates = slices.DeleteFunc(s.templates, func(x *tmpl) bool { return x == t })
	return true
}

func (s *Server) getAlias(w http.ResponseWriter, alias string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.find(alias)
	if t == nil || t.id == alias {
		writeError(w, http.StatusNotFound, "template with alias "+alias+" not found")
		return
	}
	if t.foreign {
		writeError(w, http.StatusForbidden, "you don't have access to template with alias "+alias)
		return
	}
	writeJSON(w, http.StatusOK, templateAliasResponse{TemplateID: t.id, Public: t.public})
}

// page reads paginationLimit and paginationNextToken; the token is the index of the next item.
func page(r *http.Request) (first, limit int, ok bool) {
	limit, err := queryInt(r, "limit", 100)
	if err != nil || limit < 1 || limit > 100 {
		return 0, 0, false
	}
	first, err = queryInt(r, "nextToken", 0)
	return first, limit, err == nil && first >= 0
}

func valueOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
