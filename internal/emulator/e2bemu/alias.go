package e2bemu

import (
	"fmt"
	"net/http"
	"strings"
)

// getAlias is handlers/template_alias.go. Without a tag it only says the alias resolves (to the
// team's template, or 403 for another team's); with ":tag" it also answers 404 unless a ready
// build carries the tag, after the ownership check. An id resolves too (alias_cache.go falls back
// to ids for a bare name).
func (s *Server) getAlias(w http.ResponseWriter, alias string) {
	identifier, tag, err := parseName(alias)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid alias format: "+err.Error())
		return
	}
	if msg := namespaceProblem(identifier, s.opts.TeamSlug); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.resolve(identifier)
	switch {
	case !owned(w, t, identifier, "You don't have access to this template alias"):
	case strings.Contains(alias, ":") && !s.observeReady(t, tag):
		writeError(w, http.StatusNotFound, fmt.Sprintf("tag '%s' does not exist for template '%s'", orDefault(tag), identifier))
	default:
		writeJSON(w, http.StatusOK, templateAliasResponse{TemplateID: t.id, Public: t.public})
	}
}

// observeReady reports whether a ready build carries tag and, as a client now sees it finished,
// records the observation for Stats; callers hold s.mu.
func (s *Server) observeReady(t *tmpl, tag string) bool {
	b := t.readyBuild(tag)
	if b != nil {
		b.observe(s.now())
	}
	return b != nil
}
