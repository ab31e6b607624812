package e2bemu

import (
	"net/http"
	"slices"
)

// ServedPrefix answers what a sandbox started from "<alias or id>[:tag]" would run: the build the
// name resolves to and what that build was started with. Black-box tests compare it with what a
// client recorded, without trusting any tag the client chose.
const ServedPrefix = ControlPrefix + "served/"

// Served is the build a template name resolves to, as ServedPrefix answers it.
type Served struct {
	TemplateID string `json:"template_id"`
	BuildID    string `json:"build_id"`
	Status     string `json:"status"`
	// CPUCount and MemoryMB are the build's sizing, as the create request that registered it set it.
	CPUCount int `json:"cpu_count"`
	MemoryMB int `json:"memory_mb"`
	// Start is the body the build was started with, registry credentials left out; nil for a
	// seeded build, which no request started.
	Start *ServedStart `json:"start"`
	// StartCmd, ReadyCmd and HasStart are the start metadata the build gave the template (the
	// request's, or those inherited from fromTemplate).
	StartCmd string `json:"start_cmd"`
	ReadyCmd string `json:"ready_cmd"`
	HasStart bool   `json:"has_start"`
}

// ServedStart is a build start body (TemplateBuildStartV2) without its registry credentials.
type ServedStart struct {
	FromImage    *string        `json:"fromImage,omitempty"`
	FromTemplate *string        `json:"fromTemplate,omitempty"`
	RegistryType string         `json:"registryType,omitempty"`
	Force        *bool          `json:"force,omitempty"`
	Steps        []TemplateStep `json:"steps"`
	StartCmd     *string        `json:"startCmd,omitempty"`
	ReadyCmd     *string        `json:"readyCmd,omitempty"`
}

// ServedBuild resolves name ("alias", "namespace/alias" or an id, optionally ":tag") as a sandbox
// create does: the team's template, then the newest assignment of the tag (default: "default")
// whose build is ready (get_template_with_build_by_tag.sql). It reports false when nothing serves.
func (s *Server) ServedBuild(name string) (Served, bool) {
	identifier, tag, err := parseName(name)
	if err != nil {
		return Served{}, false
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.resolve(identifier)
	if t == nil || t.foreign {
		return Served{}, false
	}
	b := t.readyBuild(tag)
	if b == nil {
		return Served{}, false
	}
	served := Served{TemplateID: t.id, BuildID: b.id, Status: b.status, CPUCount: b.cpu, MemoryMB: b.mem,
		StartCmd: b.plan.startCmd, ReadyCmd: b.plan.readyCmd, HasStart: b.plan.hasStart}
	if i := slices.IndexFunc(s.starts, func(st BuildStart) bool { return st.BuildID == b.id }); i >= 0 {
		body := s.starts[i].Body
		served.Start = &ServedStart{FromImage: body.FromImage, FromTemplate: body.FromTemplate, RegistryType: s.starts[i].RegistryType,
			Force: body.Force, Steps: append([]TemplateStep{}, body.Steps...), StartCmd: body.StartCmd, ReadyCmd: body.ReadyCmd}
	}
	return served, true
}

// serveServed answers GET ServedPrefix+"<name>" with ServedBuild, or 404 when nothing serves name.
func (s *Server) serveServed(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method != http.MethodGet {
		writeError(w, http.StatusMethodNotAllowed, "only GET "+r.URL.Path)
		return
	}
	served, ok := s.ServedBuild(name)
	if !ok {
		writeError(w, http.StatusNotFound, "nothing serves "+name+": no template, or no ready build carries the tag")
		return
	}
	writeJSON(w, http.StatusOK, served)
}
