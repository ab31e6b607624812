package daytonaemu

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// ControlPath prefixes the emulator's own controls, for tests that drive it from outside (the
// standalone cmd/sandbox-emulator). They need no API key, never fault and are not recorded:
//
//	POST /_emulator/images                   sandboxos.ImageDeclaration: what an image holds
//	POST /_emulator/private-images           {"ref", "username", "password"}: ref pulls only with these
//	POST /_emulator/faults                   a Fault: fail the next count matching requests
//	POST /_emulator/clock                    {"advance": "10m"}: move the emulator's clock on (or, "-11m", back)
//	PUT  /_emulator/settings                 {"pollsPerState": -1}: Options.PollsPerState from now
//	                                         on (-1 holds every snapshot where it is); answers it
//	POST /_emulator/snapshots/{idOrName}/expire  what the deactivate-old-snapshots cron does to a
//	                                         snapshot unused for 14 days: active -> inactive, now
//	GET  /_emulator/served/{name}            what POST /sandbox {snapshot: name} would start (Served), or 404
//	GET  /_emulator/snapshots                every snapshot, removed ones included
//	GET  /_emulator/sandboxes                every sandbox with the commands run in it
//	GET  /_emulator/registries               the organization's registry entries (no passwords)
//	GET  /_emulator/stats                    Stats
const ControlPath = "/_emulator/"

func (s *Server) controlRoutes() {
	s.mux.HandleFunc("POST "+ControlPath+"images", func(w http.ResponseWriter, r *http.Request) {
		var d sandboxos.ImageDeclaration
		if !decodeControl(w, r, &d) {
			return
		}
		if err := s.catalogue.DeclareImage(d); err != nil {
			controlError(w, r, err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("POST "+ControlPath+"private-images", func(w http.ResponseWriter, r *http.Request) {
		var p struct{ Ref, Username, Password string }
		if !decodeControl(w, r, &p) {
			return
		}
		if p.Ref == "" {
			controlError(w, r, "ref is required")
			return
		}
		s.DeclarePrivateImage(p.Ref, Credential{Username: p.Username, Password: p.Password})
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("POST "+ControlPath+"faults", func(w http.ResponseWriter, r *http.Request) {
		var f Fault
		if !decodeControl(w, r, &f) {
			return
		}
		if f.Status < 400 || f.Status > 599 || f.Count < 1 {
			controlError(w, r, fmt.Sprintf("status must be 4xx or 5xx (not %d) and count >= 1 (not %d)", f.Status, f.Count))
			return
		}
		s.InjectFault(f)
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("POST "+ControlPath+"clock", func(w http.ResponseWriter, r *http.Request) {
		var c struct{ Advance string }
		if !decodeControl(w, r, &c) {
			return
		}
		d, err := time.ParseDuration(c.Advance)
		if err != nil { // a negative one moves it back, so what happens next happened that long ago
			controlError(w, r, fmt.Sprintf("advance must be a duration such as 10m or -11m, not %q", c.Advance))
			return
		}
		s.AdvanceClock(d)
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("PUT "+ControlPath+"settings", func(w http.ResponseWriter, r *http.Request) {
		var st struct {
			PollsPerState *int `json:"pollsPerState"`
		}
		if !decodeControl(w, r, &st) {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if st.PollsPerState != nil {
			s.opts.PollsPerState = *st.PollsPerState
		}
		writeJSON(w, http.StatusOK, map[string]int{"pollsPerState": s.opts.pollsPerState()})
	})
	s.mux.HandleFunc("POST "+ControlPath+"snapshots/{idOrName}/expire", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Expire(r.PathValue("idOrName")); err != nil {
			writeError(w, r, http.StatusNotFound, err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("GET "+ControlPath+"snapshots", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		views := []map[string]any{}
		for _, sn := range s.snapshots {
			v := sn.dto()
			v["removed"] = sn.Removed
			views = append(views, v)
		}
		writeJSON(w, http.StatusOK, views)
	})
	s.mux.HandleFunc("GET "+ControlPath+"served/{name}", func(w http.ResponseWriter, r *http.Request) {
		served, ok := s.ServedSnapshot(r.PathValue("name"))
		if !ok {
			writeError(w, r, http.StatusNotFound, "no active snapshot named "+r.PathValue("name"))
			return
		}
		writeJSON(w, http.StatusOK, served)
	})
	s.mux.HandleFunc("GET "+ControlPath+"sandboxes", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		views := []map[string]any{}
		for _, sb := range s.sandboxes {
			views = append(views, map[string]any{"id": sb.ID, "name": sb.Name, "snapshot": sb.Snapshot, "snapshotId": sb.SnapshotID,
				"user": sb.User, "state": sb.State, "commands": append([]Command{}, sb.Commands...)})
		}
		writeJSON(w, http.StatusOK, views)
	})
	s.mux.HandleFunc("GET "+ControlPath+"registries", func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		views := []map[string]any{}
		for _, g := range s.registries {
			views = append(views, g.dto())
		}
		writeJSON(w, http.StatusOK, views)
	})
	s.mux.HandleFunc("GET "+ControlPath+"stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Stats())
	})
}

// DeclarePrivateImage makes ref (or, without a tag, every tag of its repository) pull only with
// cred.
func (s *Server) DeclarePrivateImage(ref string, cred Credential) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.private[ref] = cred
}

// DeclareImage makes snapshots of d.Ref hold what d describes.
func (s *Server) DeclareImage(d sandboxos.ImageDeclaration) error { return s.catalogue.DeclareImage(d) }

// Expire does to the snapshot named or numbered idOrName what the deactivate-old-snapshots cron
// does to an active snapshot unused for snapshot_deactivation_timeout_minutes (14 days:
// snapshot.manager.ts deactivateOldSnapshots): it goes inactive, updated now, so the activation
// cooldown starts.
func (s *Server) Expire(idOrName string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn := s.lookup(idOrName)
	if sn == nil {
		return fmt.Errorf("no snapshot %s", idOrName)
	}
	if sn.State != StateActive {
		return fmt.Errorf("snapshot %s is %s: the cron deactivates only active snapshots", idOrName, sn.State)
	}
	s.setState(sn, step{state: StateInactive})
	return nil
}

// Served is the snapshot a sandbox of a name starts from, and what its containers get.
type Served struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	ImageName  string            `json:"imageName,omitempty"`
	Dockerfile string            `json:"dockerfile,omitempty"`
	Entrypoint []string          `json:"entrypoint"`
	CPU        float64           `json:"cpu"`
	Mem        float64           `json:"mem"`
	Disk       float64           `json:"disk"`
	Env        map[string]string `json:"env"`     // the image's ENV, as built
	Workdir    string            `json:"workdir"` // its WORKDIR
	User       string            `json:"user"`    // its USER
}

// ServedSnapshot reports the active snapshot named name (the one sandbox.service.ts
// createFromSnapshot accepts), or false when there is none. It reads nothing: a snapshot in a
// transitional state stays where clients last saw it.
func (s *Server) ServedSnapshot(name string) (Served, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn := s.byName(name)
	if sn == nil || sn.State != StateActive {
		return Served{}, false
	}
	out := Served{ID: sn.ID, Name: sn.Name, ImageName: sn.ImageName, Entrypoint: sn.Entrypoint, CPU: sn.CPU, Mem: sn.Mem,
		Disk: sn.Disk, Env: maps.Clone(sn.config.env), Workdir: sn.config.workdir, User: sn.config.user}
	if sn.BuildInfo != nil {
		out.Dockerfile = sn.BuildInfo.DockerfileContent
	}
	return out, true
}

// Stats counts what the emulator answered.
type Stats struct {
	Requests  map[string]int `json:"requests"`  // by "METHOD path" with ids replaced by {id}
	Snapshots map[string]int `json:"snapshots"` // live snapshots by state
	Sandboxes int            `json:"sandboxes"` // sandboxes not destroyed
}

// Stats returns the emulator's counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Requests: map[string]int{}, Snapshots: map[string]int{}}
	for _, r := range s.requests {
		parts := strings.Split(r.Path, "/")
		for i, p := range parts {
			if isUUID(p) {
				parts[i] = "{id}"
			}
		}
		st.Requests[r.Method+" "+strings.Join(parts, "/")]++
	}
	for _, sn := range s.snapshots {
		if !sn.Removed {
			st.Snapshots[sn.State]++
		}
	}
	for _, sb := range s.sandboxes {
		if !slices.Contains([]string{"destroying", "destroyed"}, sb.State) {
			st.Sandboxes++
		}
	}
	return st
}

func decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		controlError(w, r, err.Error())
		return false
	}
	return true
}

func controlError(w http.ResponseWriter, r *http.Request, msg string) {
	writeError(w, r, http.StatusBadRequest, msg)
}
