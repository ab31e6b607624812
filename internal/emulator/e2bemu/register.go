package e2bemu

import (
	"fmt"
	"net/http"
	"slices"
)

// Sizing limits: packages/api/internal/constants/templates.go.
const (
	defaultCPU    = 2
	defaultMemory = 1024
	maxCPU        = 32
	minMemory     = 128
)

// supersededReason is what register_build.go writes on the unstarted builds a newer registration replaces.
const supersededReason = "The build was canceled because it was superseded by a newer one."

// createTemplate is POST /v3/templates: handlers/template_request_build_v3.go then
// template/register_build.go, with their checks in their order.
func (s *Server) createTemplate(w http.ResponseWriter, r *http.Request) {
	var req templateBuildRequestV3
	if !decode(w, r, &req) {
		return
	}
	input := req.Name
	if input == "" {
		input = req.Alias // deprecated field
	}
	identifier, tag, err := parseName(input)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid name: "+err.Error())
		return
	}
	if msg := namespaceProblem(identifier, s.opts.TeamSlug); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	all := req.Tags
	if tag != "" {
		all = append([]string{tag}, all...)
	}
	tags, err := validateTags(all)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid tag: "+err.Error())
		return
	}
	if len(tags) == 0 {
		tags = []string{defaultTag}
	}
	_, alias := splitIdentifier(identifier)

	s.lock()
	defer s.mu.Unlock()
	// Another team's (promoted) template under this name does not stop the team creating its own.
	t := s.resolve(identifier)
	if t != nil && t.foreign {
		t = nil
	}
	if n := s.activeBuildsExcept(t, tags); s.concurrency > 0 && n >= s.concurrency {
		// No Retry-After: the slot frees when a build ends, not after a delay.
		writeError(w, http.StatusTooManyRequests, fmt.Sprintf("you have reached the maximum number of concurrent template builds (%d). "+
			"Please wait for existing builds to complete or contact support if you need more concurrent builds.", s.concurrency))
		return
	}
	cpu, mem, msg := s.limits.sizing(req.CPUCount, req.MemoryMB)
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	if s.idTaken(alias) { // CheckAliasConflictsWithTemplateID: ids of deleted templates count too
		writeError(w, http.StatusConflict, fmt.Sprintf("Alias '%s' is already used", alias))
		return
	}

	now := s.now()
	if t == nil {
		t = &tmpl{id: newID()[:20], alias: alias, createdAt: now}
		s.templates = append(s.templates, t)
	}
	t.cpu, t.mem, t.updatedAt = cpu, mem, now
	for _, b := range t.builds { // InvalidateUnstartedTemplateBuilds
		if b.status == statusWaiting && slices.ContainsFunc(tags, func(tag string) bool { return t.hasAssignment(b.id, tag) }) {
			b.fail(now, supersededReason, "")
		}
	}
	b := &build{id: newUUID(), status: statusWaiting, createdAt: now, cpu: cpu, mem: mem, tags: tags, minFreeMB: req.MinFreeDiskMb}
	t.builds = append(t.builds, b)
	for _, tag := range tags {
		t.assignments = append(t.assignments, assignment{tag: tag, buildID: b.id, createdAt: now})
	}
	writeJSON(w, http.StatusAccepted, templateRequestResponseV3{
		TemplateID: t.id, BuildID: b.id, Public: t.public, Aliases: t.aliases(), Names: s.names(t), Tags: tags})
}

// activeBuildsExcept counts the team's builds from registration until they end
// (GetInProgressTemplateBuildsByTeam), leaving out those of template t that share a tag with tags:
// the registration is about to supersede them. Callers hold s.mu.
func (s *Server) activeBuildsExcept(t *tmpl, tags []string) int {
	n := 0
	for _, other := range s.templates {
		if other.foreign || other.deleted {
			continue
		}
		for _, b := range other.builds {
			if b.active() && (other != t || !slices.ContainsFunc(tags, func(tag string) bool { return other.hasAssignment(b.id, tag) })) {
				n++
			}
		}
	}
	return n
}

// TeamLimits are a team's maxima for template sizing (the tiers table's max_vcpu and max_ram_mb).
type TeamLimits struct {
	MaxCPU      int `json:"maxCpu"`
	MaxMemoryMB int `json:"maxMemoryMb"`
}

// orDefault fills unset maxima with those of E2B's default tier (db/migrations
// 20250507134356_add_max_specs_to_tier.sql and 20250513111201_tier_fix_max_memory.sql).
func (l TeamLimits) orDefault() TeamLimits {
	if l.MaxCPU == 0 {
		l.MaxCPU = 8
	}
	if l.MaxMemoryMB == 0 {
		l.MaxMemoryMB = 8192
	}
	return l
}

// sizing is team/limits.go LimitResources: the defaults, or the request's values when they are
// allowed; only values the request sets are checked, in the server's order and words.
func (l TeamLimits) sizing(cpuCount, memoryMB *int) (cpu, mem int, problem string) {
	cpu, mem = valueOr(cpuCount, defaultCPU), valueOr(memoryMB, defaultMemory)
	if cpuCount != nil {
		switch {
		case cpu < 1:
			return 0, 0, "CPU count must be at least 1"
		case cpu > maxCPU:
			return 0, 0, fmt.Sprintf("CPU count must be at most %d", maxCPU)
		case cpu != 1 && cpu%2 != 0:
			return 0, 0, "CPU count must be 1 or an even number"
		case cpu > l.MaxCPU:
			return 0, 0, fmt.Sprintf("CPU count can't be higher than %d (if you need to increase this limit, please contact support)", l.MaxCPU)
		}
	}
	if memoryMB != nil {
		switch {
		case mem < minMemory:
			return 0, 0, fmt.Sprintf("Memory must be at least %d MiB", minMemory)
		case mem%2 != 0:
			return 0, 0, "Memory must be divisible by 2"
		case mem > l.MaxMemoryMB:
			return 0, 0, fmt.Sprintf("Memory can't be higher than %d MiB (if you need to increase this limit, please contact support)", l.MaxMemoryMB)
		}
	}
	return cpu, mem, ""
}

// idTaken reports whether alias is the id of any template, deleted or another team's; callers hold s.mu.
func (s *Server) idTaken(alias string) bool {
	return slices.ContainsFunc(s.templates, func(t *tmpl) bool { return t.id == alias })
}

func (t *tmpl) hasAssignment(buildID, tag string) bool {
	return slices.ContainsFunc(t.assignments, func(a assignment) bool { return a.buildID == buildID && a.tag == tag })
}

// shareTag tells whether two builds carry a tag in common.
func (t *tmpl) shareTag(buildID, otherID string) bool {
	return slices.ContainsFunc(t.assignments, func(a assignment) bool { return a.buildID == buildID && t.hasAssignment(otherID, a.tag) })
}
