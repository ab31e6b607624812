package e2bemu

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// tmpl is a template (an "env" on E2B) and its builds.
type tmpl struct {
	id        string
	alias     string // "" once deleted: delete releases the alias
	foreign   bool   // another team's promoted template: its alias has no namespace
	public    bool
	deleted   bool // soft-deleted: found nowhere, but its id stays reserved
	sandboxes int  // running sandboxes started from it
	cpu, mem  int
	createdAt time.Time
	updatedAt time.Time
	builds    []*build
	// assignments are tag -> build, oldest first; a tag may have several (list_template_tags.sql).
	assignments []assignment
}

type assignment struct {
	tag       string
	buildID   string
	createdAt time.Time
}

func (t *tmpl) aliases() []string {
	if t.alias == "" {
		return []string{}
	}
	return []string{t.alias}
}

// names are aliases with their namespace (register_build.go: id.WithNamespace(team.Slug, alias));
// a promoted template's alias has none.
func (s *Server) names(t *tmpl) []string {
	if t.alias == "" || t.foreign {
		return t.aliases()
	}
	return []string{s.opts.TeamSlug + "/" + t.alias}
}

// resolve is cache/templates/alias_cache.go Resolve: an explicit namespace looks only there; a
// bare alias looks in the team's namespace, then among promoted templates, then at template ids.
// Deleted templates are not found. Callers hold s.mu.
func (s *Server) resolve(identifier string) *tmpl {
	namespace, alias := splitIdentifier(identifier)
	live := func(match func(*tmpl) bool) *tmpl {
		for _, t := range s.templates {
			if !t.deleted && match(t) {
				return t
			}
		}
		return nil
	}
	if namespace != "" {
		return live(func(t *tmpl) bool { return !t.foreign && namespace == s.opts.TeamSlug && t.alias == alias })
	}
	if t := live(func(t *tmpl) bool { return !t.foreign && t.alias == alias }); t != nil {
		return t
	}
	if t := live(func(t *tmpl) bool { return t.foreign && t.alias == alias }); t != nil {
		return t
	}
	return live(func(t *tmpl) bool { return t.id == alias })
}

// byID finds a live template by id only, as the handlers that take {templateID} without alias
// resolution do (template_get.go, template_start_build_v2.go). Callers hold s.mu.
func (s *Server) byID(id string) *tmpl {
	for _, t := range s.templates {
		if !t.deleted && t.id == id {
			return t
		}
	}
	return nil
}

// resolveOwned parses a template reference and resolves it to one of the team's templates, or
// answers as handlers/auth.go resolveTemplateAndTeam does (400, 404, 403) and returns nil.
// Callers hold s.mu.
func (s *Server) resolveOwned(w http.ResponseWriter, ref, invalid string) *tmpl {
	identifier, _, err := parseName(ref)
	if err != nil {
		writeError(w, http.StatusBadRequest, invalid+": "+err.Error())
		return nil
	}
	t := s.resolve(identifier)
	if !owned(w, t, identifier, fmt.Sprintf("You don't have access to template '%s'", identifier)) {
		return nil
	}
	return t
}

// owned answers 404 for a missing template and 403 with forbidden (each handler words it its own
// way) for another team's, and tells whether t is the team's own.
func owned(w http.ResponseWriter, t *tmpl, identifier, forbidden string) bool {
	switch {
	case t == nil:
		writeError(w, http.StatusNotFound, fmt.Sprintf("template '%s' not found", identifier))
	case t.foreign:
		writeError(w, http.StatusForbidden, forbidden)
	default:
		return true
	}
	return false
}

// listTemplates is handlers/templates_list.go over get_team_templates.sql: buildID is the build the
// template's `default` tag resolves to (its newest assignment whose build is ready: what sandboxes
// start from), the zero UUID when none; buildStatus is that of the newest `default` assignment's
// build, ready or not.
func (s *Server) listTemplates(w http.ResponseWriter, _ *http.Request) {
	s.lock()
	defer s.mu.Unlock()
	out := []template{}
	for _, t := range s.templates {
		if t.foreign || t.deleted || len(t.builds) == 0 {
			continue // the list holds the team's own templates
		}
		served, status := noBuildID, "waiting" // COALESCE(latest_build.status_group, 'pending')
		if b := t.readyBuild(defaultTag); b != nil {
			served = b.id
		}
		if b := t.newestAssigned(defaultTag); b != nil {
			b.observe(s.now())
			status = b.status
		}
		out = append(out, template{TemplateID: t.id, BuildID: served, CPUCount: t.cpu, MemoryMB: t.mem, DiskSizeMB: 5120,
			Public: t.public, Aliases: t.aliases(), Names: s.names(t), CreatedAt: t.createdAt, UpdatedAt: t.updatedAt,
			BuildCount: len(t.builds), EnvdVersion: "0.2.0", BuildStatus: status})
	}
	writeJSON(w, http.StatusOK, out)
}

// noBuildID is what get_team_templates.sql answers for a template no ready build serves.
const noBuildID = "00000000-0000-0000-0000-000000000000"

// getTemplate is handlers/template_get.go: by id only, the builds that carry a tag, newest first.
func (s *Server) getTemplate(w http.ResponseWriter, r *http.Request) {
	first, limit, ok := page(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "Invalid next token")
		return
	}
	s.lock()
	defer s.mu.Unlock()
	id := r.PathValue("templateID")
	t := s.byID(id)
	switch {
	case t == nil:
		writeError(w, http.StatusNotFound, fmt.Sprintf("Template %s not found", id))
		return
	case t.foreign:
		writeError(w, http.StatusForbidden, fmt.Sprintf("You don't have access to this sandbox template (%s)", id))
		return
	}
	out := templateWithBuilds{TemplateID: t.id, Public: t.public, Aliases: t.aliases(), Names: s.names(t),
		CreatedAt: t.createdAt, UpdatedAt: t.updatedAt, Builds: []templateBuild{}}
	// get_template_with_builds.sql: builds reached through an assignment, newest first.
	var listed []*build
	for i := len(t.builds) - 1; i >= 0; i-- {
		if t.assigned(t.builds[i].id) {
			listed = append(listed, t.builds[i])
		}
	}
	for i, b := range listed {
		if i < first || i >= first+limit {
			continue
		}
		b.observe(s.now())
		out.Builds = append(out.Builds, templateBuild{BuildID: b.id, Status: b.status, CreatedAt: b.createdAt,
			UpdatedAt: b.updatedAt(), FinishedAt: b.finishedAt, CPUCount: b.cpu, MemoryMB: b.mem})
	}
	if first+limit < len(listed) {
		w.Header().Set("X-Next-Token", fmt.Sprint(first+limit))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) updateTemplate(w http.ResponseWriter, r *http.Request) {
	var req templateUpdateRequest
	if !decode(w, r, &req) {
		return
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.resolveOwned(w, r.PathValue("templateID"), "Invalid template ID")
	if t == nil {
		return
	}
	if req.Public != nil {
		t.public = *req.Public
	}
	t.updatedAt = s.now()
	if strings.HasPrefix(r.URL.Path, "/v2/") {
		writeJSON(w, http.StatusOK, templateUpdateResponse{Names: s.names(t)})
		return
	}
	w.WriteHeader(http.StatusOK)
}

// deleteTemplate is handlers/template_delete.go: by alias or id; refused while sandboxes run from
// the template; a soft delete that releases the aliases.
func (s *Server) deleteTemplate(w http.ResponseWriter, r *http.Request) {
	s.lock()
	defer s.mu.Unlock()
	t := s.resolveOwned(w, r.PathValue("templateID"), "Invalid template ID")
	if t == nil {
		return
	}
	if t.sandboxes > 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("cannot delete template '%s' because there are running sandboxes using it", t.id))
		return
	}
	s.softDelete(t)
	w.WriteHeader(http.StatusNoContent)
}

// softDelete keeps the template's id reserved, releases its alias and stops its builds counting
// against the team's limit (delete_template.sql); callers hold s.mu.
func (s *Server) softDelete(t *tmpl) {
	now := s.now()
	t.deleted, t.alias, t.updatedAt = true, "", now
	for _, b := range t.builds {
		if b.active() {
			b.fail(now, "build was cancelled", "")
		}
	}
}

func (t *tmpl) assigned(buildID string) bool {
	return slices.ContainsFunc(t.assignments, func(a assignment) bool { return a.buildID == buildID })
}

// newestAssigned is the build of tag's newest assignment, whatever its status, or nil.
func (t *tmpl) newestAssigned(tag string) *build {
	for i := len(t.assignments) - 1; i >= 0; i-- {
		if t.assignments[i].tag == tag {
			return t.build(t.assignments[i].buildID)
		}
	}
	return nil
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
