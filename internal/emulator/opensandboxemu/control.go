package opensandboxemu

import (
	"encoding/json"
	"net/http"
)

// ControlPath prefixes the emulator's own controls, for tests that drive it from outside (the
// standalone cmd/sandbox-emulator). They need no API key, never fault and are not recorded:
//
//	POST /_emulator/faults     a Fault as JSON: fail the next count matching requests (5xx, 429)
//	POST /_emulator/snapshots  {"name", "state", "image"}: seed a snapshot; answers {"id"}
//	PUT  /_emulator/settings   Settings as JSON (fields left out stay as they are); answers Settings
//	GET  /_emulator/sandboxes  every sandbox, deleted ones included (registry auth left out), with
//	                           its execd calls in order (commands, folders made, files uploaded)
//	GET  /_emulator/snapshots  every snapshot, deleted ones included
//	GET  /_emulator/served/{name}  the newest Ready snapshot of name and what made it (Served)
const ControlPath = "/_emulator/"

// Settings are the server options that can change while it runs.
type Settings struct {
	// IgnoreSnapshotNameFilter is the "old server" mode: GET /snapshots ignores ?name=.
	IgnoreSnapshotNameFilter *bool `json:"ignoreSnapshotNameFilter,omitempty"`
	// MaxSandboxTimeoutSeconds is the server's timeout cap; 0 removes it.
	MaxSandboxTimeoutSeconds *int `json:"maxSandboxTimeoutSeconds,omitempty"`
}

// Apply changes the settings that are set in st and returns them all.
func (s *Server) Apply(st Settings) Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.IgnoreSnapshotNameFilter != nil {
		s.opts.IgnoreSnapshotNameFilter = *st.IgnoreSnapshotNameFilter
	}
	if st.MaxSandboxTimeoutSeconds != nil {
		s.opts.MaxSandboxTimeoutSeconds = *st.MaxSandboxTimeoutSeconds
	}
	ignore, limit := s.opts.IgnoreSnapshotNameFilter, s.opts.MaxSandboxTimeoutSeconds
	return Settings{IgnoreSnapshotNameFilter: &ignore, MaxSandboxTimeoutSeconds: &limit}
}

func (s *Server) controlRoutes() {
	s.mux.HandleFunc("POST "+ControlPath+"faults", func(w http.ResponseWriter, r *http.Request) {
		var f Fault
		if !decodeControl(w, r, &f) {
			return
		}
		if msg := f.problem(); msg != "" {
			writeError(w, http.StatusBadRequest, "EMULATOR::INVALID_FAULT", msg)
			return
		}
		s.InjectFault(f)
		w.WriteHeader(http.StatusNoContent)
	})
	s.mux.HandleFunc("POST "+ControlPath+"snapshots", func(w http.ResponseWriter, r *http.Request) {
		var seed struct{ Name, State, Image string }
		if !decodeControl(w, r, &seed) {
			return
		}
		if seed.State == "" {
			seed.State = SnapshotReady
		}
		if msg := snapshotState(seed.State); msg != "" {
			writeError(w, http.StatusBadRequest, "EMULATOR::INVALID_SNAPSHOT", msg)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]string{"id": s.SeedSnapshot(seed.Name, seed.State, seed.Image)})
	})
	s.mux.HandleFunc("PUT "+ControlPath+"settings", func(w http.ResponseWriter, r *http.Request) {
		var st Settings
		if !decodeControl(w, r, &st) {
			return
		}
		if msg := st.problem(); msg != "" {
			writeError(w, http.StatusBadRequest, "EMULATOR::INVALID_SETTINGS", msg)
			return
		}
		writeJSON(w, http.StatusOK, s.Apply(st))
	})
	s.mux.HandleFunc("GET "+ControlPath+"sandboxes", func(w http.ResponseWriter, _ *http.Request) {
		views := []map[string]any{}
		for _, sb := range s.Sandboxes() {
			views = append(views, map[string]any{"id": sb.ID, "image": sb.Image, "snapshotId": sb.SnapshotID,
				"entrypoint": sb.Entrypoint, "timeout": sb.Timeout, "state": sb.State, "reason": sb.Reason,
				"message": sb.Message, "deleted": sb.Deleted, "commands": len(sb.Commands), "calls": callViews(sb.Calls)})
		}
		writeJSON(w, http.StatusOK, views)
	})
	s.mux.HandleFunc("GET "+ControlPath+"served/{name}", s.serveServed)
	s.mux.HandleFunc("GET "+ControlPath+"snapshots", func(w http.ResponseWriter, _ *http.Request) {
		views := []map[string]any{}
		for _, sn := range s.Snapshots() {
			views = append(views, map[string]any{"id": sn.ID, "sandboxId": sn.SandboxID, "name": sn.Name,
				"image": sn.Image, "state": sn.State, "deleted": sn.Deleted})
		}
		writeJSON(w, http.StatusOK, views)
	})
}

func decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "EMULATOR::INVALID_BODY", err.Error())
		return false
	}
	return true
}

// callViews are execd calls as JSON: {"command", "cwd", "uid", "gid", "envs"}, {"mkdir", ...} or
// {"upload", "owner", "group", "mode", "size"}.
func callViews(calls []ExecdCall) []map[string]any {
	views := []map[string]any{}
	for _, c := range calls {
		switch {
		case c.Command != nil:
			views = append(views, map[string]any{"command": c.Command.Command, "cwd": c.Command.Cwd, "uid": c.Command.UID,
				"gid": c.Command.GID, "envs": c.Command.Envs, "background": c.Command.Background})
		case c.MakeDir != nil:
			views = append(views, map[string]any{"mkdir": c.MakeDir.Path, "owner": c.MakeDir.Owner, "group": c.MakeDir.Group, "mode": c.MakeDir.Mode})
		default:
			views = append(views, map[string]any{"upload": c.Upload.Path, "owner": c.Upload.Owner, "group": c.Upload.Group,
				"mode": c.Upload.Mode, "size": c.Upload.Size})
		}
	}
	return views
}
