package opensandboxemu

import (
	"net/http"
	"time"
)

// Served is the snapshot a consumer of template name starts sandboxes from (the newest Ready
// snapshot of that name, by createdAt then id) and what made it: the image, the commands run in
// its source sandbox before the capture, and that sandbox's entrypoint and resource limits.
type Served struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	State     string    `json:"state"`
	CreatedAt time.Time `json:"created_at"`
	Image     string    `json:"image"`
	Commands  []Command `json:"commands"`
	// Sandbox is the source sandbox; nil for a seeded snapshot.
	Sandbox *ServedSandbox `json:"sandbox"`
}

// ServedSandbox is what a snapshot's source sandbox was created with.
type ServedSandbox struct {
	ID             string            `json:"id"`
	Image          string            `json:"image"`
	Entrypoint     []string          `json:"entrypoint"`
	ResourceLimits map[string]string `json:"resource_limits"`
}

// ServedSnapshot reports the newest Ready, undeleted snapshot named name, or false when none is.
// It polls nothing: a Creating snapshot stays as clients last saw it.
func (s *Server) ServedSnapshot(name string) (Served, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var newest *Snapshot
	for _, sn := range s.snapshots {
		if sn.Deleted || sn.Name != name || sn.State != SnapshotReady {
			continue
		}
		if newest == nil || sn.CreatedAt.After(newest.CreatedAt) || (sn.CreatedAt.Equal(newest.CreatedAt) && sn.ID > newest.ID) {
			newest = sn
		}
	}
	if newest == nil {
		return Served{}, false
	}
	out := Served{ID: newest.ID, Name: newest.Name, State: newest.State, CreatedAt: newest.CreatedAt, Image: newest.Image,
		Commands: append([]Command{}, newest.Commands...)}
	for _, sb := range s.sandboxes {
		if sb.ID == newest.SandboxID {
			out.Sandbox = &ServedSandbox{ID: sb.ID, Image: sb.Image, Entrypoint: sb.Entrypoint, ResourceLimits: sb.ResourceLimits}
		}
	}
	return out, true
}

// serveServed answers GET ControlPath+"served/{name}" with ServedSnapshot, or 404.
func (s *Server) serveServed(w http.ResponseWriter, r *http.Request) {
	served, ok := s.ServedSnapshot(r.PathValue("name"))
	if !ok {
		writeError(w, http.StatusNotFound, "EMULATOR::NOT_SERVED", "no Ready snapshot named "+r.PathValue("name"))
		return
	}
	writeJSON(w, http.StatusOK, served)
}
