package e2bemu

import (
	"net/http"
	"sort"
	"strings"
)

// listTags answers for a template id or alias: E2B resolves either in {templateID}, which is what
// lets the provider refresh a template with this one request.
func (s *Server) listTags(w http.ResponseWriter, templateID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.foundTemplate(w, templateID)
	if t == nil {
		return
	}
	if t.foreign && !t.public {
		writeError(w, http.StatusForbidden, "you don't have access to template "+templateID)
		return
	}
	for _, b := range t.builds {
		s.advance(t, b) // a build that finished since the last poll tags its template
	}
	out := []templateTag{}
	for tag, buildID := range t.tags {
		out = append(out, templateTag{Tag: tag, BuildID: buildID, CreatedAt: t.updatedAt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	writeJSON(w, http.StatusOK, out)
}

// assignTags points tags at a template's latest ready build; target is "name" or "name:tag".
func (s *Server) assignTags(w http.ResponseWriter, r *http.Request) {
	var req assignTemplateTagsRequest
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name, fromTag, _ := strings.Cut(req.Target, ":")
	t := s.foundTemplate(w, name)
	if t == nil {
		return
	}
	buildID := t.tags[fromTag]
	if fromTag == "" {
		buildID = t.latestReady()
	}
	if buildID == "" {
		writeError(w, http.StatusNotFound, "no ready build to tag")
		return
	}
	for _, tag := range req.Tags {
		t.tags[tag] = buildID
	}
	writeJSON(w, http.StatusCreated, assignedTemplateTags{Tags: req.Tags, BuildID: buildID})
}

func (s *Server) deleteTags(w http.ResponseWriter, r *http.Request) {
	var req deleteTemplateTagsRequest
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.foundTemplate(w, req.Name)
	if t == nil {
		return
	}
	for _, tag := range req.Tags {
		delete(t.tags, tag)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (t *tmpl) latestReady() string {
	for i := len(t.builds) - 1; i >= 0; i-- {
		if t.builds[i].status == statusReady {
			return t.builds[i].id
		}
	}
	return ""
}
