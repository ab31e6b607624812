package e2bemu

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// listTags is GET /templates/{templateID}/tags (handlers/template_tags.go): the newest assignment of
// each tag, whatever its build's status (list_template_tags.sql), for an alias or an id.
func (s *Server) listTags(w http.ResponseWriter, ref string) {
	s.lock()
	defer s.mu.Unlock()
	identifier, _, err := parseName(ref)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid template reference: "+err.Error())
		return
	}
	t := s.resolve(identifier)
	if !owned(w, t, identifier, fmt.Sprintf("You don't have access to sandbox template '%s'", ref)) {
		return
	}
	latest := map[string]assignment{}
	for _, a := range t.assignments {
		latest[a.tag] = a
	}
	out := []templateTag{}
	for _, a := range latest {
		out = append(out, templateTag{Tag: a.tag, BuildID: a.buildID, CreatedAt: a.createdAt})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tag < out[j].Tag })
	writeJSON(w, http.StatusOK, out)
}

// readyBuild is get_template_with_build_by_tag.sql: the newest assignment whose tag is ref ("" is
// default), or whose build id is ref (try_cast_uuid: a build id in a tag's place names exactly that
// build), and whose build is ready; nil when none.
func (t *tmpl) readyBuild(ref string) *build {
	if ref == "" {
		ref = defaultTag
	}
	byID := uuidRegex.MatchString(ref)
	for i := len(t.assignments) - 1; i >= 0; i-- {
		if a := t.assignments[i]; a.tag == ref || (byID && strings.EqualFold(a.buildID, ref)) {
			if b := t.build(a.buildID); b != nil && b.status == statusReady {
				return b
			}
		}
	}
	return nil
}

// assignTags is POST /templates/tags: target "name[:tag]" names the ready build to tag (the tag
// may be a build id, as everywhere a tag resolves).
func (s *Server) assignTags(w http.ResponseWriter, r *http.Request) {
	var req assignTemplateTagsRequest
	if !decode(w, r, &req) {
		return
	}
	if len(req.Tags) == 0 {
		writeError(w, http.StatusBadRequest, "At least one tag is required")
		return
	}
	s.lock()
	defer s.mu.Unlock()
	identifier, fromTag, err := parseName(req.Target)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid target template format: "+err.Error())
		return
	}
	if msg := namespaceProblem(identifier, s.opts.TeamSlug); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	t := s.resolve(identifier)
	if t == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("template '%s' not found", identifier))
		return
	}
	b := t.readyBuild(fromTag)
	if b == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("Template '%s' with tag '%s' not found", req.Target, orDefault(fromTag)))
		return
	}
	if t.foreign {
		writeError(w, http.StatusForbidden, fmt.Sprintf("You don't have access to sandbox template '%s'", identifier))
		return
	}
	tags, err := validateTags(req.Tags)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid tag: "+err.Error())
		return
	}
	now := s.now()
	for _, tag := range tags {
		t.assignments = append(t.assignments, assignment{tag: tag, buildID: b.id, createdAt: now})
	}
	writeJSON(w, http.StatusCreated, assignedTemplateTags{Tags: tags, BuildID: b.id})
}

// deleteTags is DELETE /templates/tags: removes every assignment of the tags; never "default".
func (s *Server) deleteTags(w http.ResponseWriter, r *http.Request) {
	var req deleteTemplateTagsRequest
	if !decode(w, r, &req) {
		return
	}
	tags, err := validateTags(req.Tags)
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "Invalid tag: "+err.Error())
		return
	case len(tags) == 0:
		writeError(w, http.StatusBadRequest, "At least one tag is required")
		return
	case slices.Contains(tags, defaultTag):
		writeError(w, http.StatusBadRequest, "Cannot delete the 'default' tag")
		return
	}
	identifier, tag, err := parseName(req.Name)
	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "Invalid template name format: "+err.Error())
		return
	case namespaceProblem(identifier, s.opts.TeamSlug) != "":
		writeError(w, http.StatusBadRequest, namespaceProblem(identifier, s.opts.TeamSlug))
		return
	case tag != "":
		writeError(w, http.StatusBadRequest, "Template name should not contain a tag, use the 'tags' field instead")
		return
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.resolve(identifier)
	if !owned(w, t, identifier, fmt.Sprintf("You don't have access to sandbox template '%s'", identifier)) {
		return
	}
	t.assignments = slices.DeleteFunc(t.assignments, func(a assignment) bool { return slices.Contains(tags, a.tag) })
	w.WriteHeader(http.StatusNoContent)
}

func orDefault(tag string) string {
	if tag == "" {
		return defaultTag
	}
	return tag
}
