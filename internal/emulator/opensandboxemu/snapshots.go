package opensandboxemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

func (s *Server) createSnapshot(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Name *string `json:"name"`
	}
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields() // CreateSnapshotRequest has additionalProperties: false
		if err := dec.Decode(&req); err != nil {
			writeValidation(w, []validationIssue{{Type: "extra_forbidden", Loc: []any{"body"}, Msg: "Invalid snapshot request: " + err.Error(), Input: string(body)}})
			return
		}
		if req.Name != nil && *req.Name == "" {
			writeValidation(w, []validationIssue{{Type: "string_too_short", Loc: []any{"body", "name"}, Msg: "String should have at least 1 character", Input: ""}})
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	s.observe(sb)
	if sb.State != StateRunning {
		writeError(w, http.StatusConflict, "SNAPSHOT::INVALID_SOURCE_STATE", "sandbox "+sb.ID+" must be Running, is "+sb.State)
		return
	}
	id, now := s.nextID("snap")
	sn := &Snapshot{ID: id, SandboxID: sb.ID, Image: sb.runsImage, State: SnapshotCreating, Reason: "snapshot_accepted", CreatedAt: now,
		Commands: append([]Command(nil), sb.Commands...), machine: sb.machine.Clone()}
	if req.Name != nil {
		sn.Name = *req.Name
	}
	s.snapshots = append(s.snapshots, sn)
	w.Header().Set("Location", "/v1/snapshots/"+id)
	writeJSON(w, http.StatusAccepted, snapshotView(sn))
}

func (s *Server) getSnapshot(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn := s.liveSnapshot(r.PathValue("snapshotId"), w)
	if sn == nil {
		return
	}
	s.advanceSnapshot(sn)
	writeJSON(w, http.StatusOK, snapshotView(sn))
}

// advanceSnapshot moves a Creating snapshot on by one poll. Callers hold mu.
func (s *Server) advanceSnapshot(sn *Snapshot) {
	if sn.State != SnapshotCreating {
		return
	}
	sn.polls++
	if s.opts.creatingPolls() < 0 || sn.polls < s.opts.creatingPolls() {
		return
	}
	if s.opts.FailSnapshots {
		sn.State, sn.Reason, sn.Message = SnapshotFailed, "snapshot_runtime_failed", "docker commit failed: no space left on device"
		return
	}
	sn.State, sn.Reason, sn.Message = SnapshotReady, "snapshot_runtime_ready", ""
}

func (s *Server) listSnapshots(w http.ResponseWriter, r *http.Request) {
	pageNum, pageSize, ok := pageQuery(w, r)
	if !ok {
		return
	}
	query := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	var items []snapshotJSON
	for _, sn := range s.snapshots {
		s.advanceSnapshot(sn)
		if sn.Deleted || (len(query["state"]) > 0 && !slices.Contains(query["state"], sn.State)) {
			continue
		}
		if id := query.Get("sandboxId"); id != "" && sn.SandboxID != id {
			continue
		}
		// ?name= is an exact match (OpenSandbox PR #1301); older servers ignore the parameter.
		if name := query.Get("name"); query.Has("name") && !s.opts.IgnoreSnapshotNameFilter && sn.Name != name {
			continue
		}
		items = append(items, snapshotView(sn))
	}
	writeJSON(w, http.StatusOK, page(items, pageNum, pageSize, s.opts.maxPageSize()))
}

// deleteSnapshot is services/snapshot_service.py delete_snapshot: a Creating snapshot is a 409; any
// other is marked Deleting first, then its image removed (docker/snapshot_runtime.py). Docker
// refuses to remove an image a container still uses: a sandbox restored from the snapshot makes it
// a 409 SNAPSHOT::DELETE_CONFLICT, and the snapshot stays Deleting.
func (s *Server) deleteSnapshot(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn := s.liveSnapshot(r.PathValue("snapshotId"), w)
	if sn == nil {
		return
	}
	if sn.State == SnapshotCreating {
		writeError(w, http.StatusConflict, "SNAPSHOT::INVALID_STATE", "Snapshot "+sn.ID+" is still being created and cannot be deleted")
		return
	}
	sn.State, sn.Reason, sn.Message = SnapshotDeleting, "snapshot_delete_requested", "Snapshot deletion requested."
	if s.restoredFrom(sn.ID) {
		writeError(w, http.StatusConflict, "SNAPSHOT::DELETE_CONFLICT", "snapshot image cannot be deleted due to a conflict")
		return
	}
	sn.Deleted = true
	w.WriteHeader(http.StatusNoContent)
}

// restoredFrom tells whether a sandbox that is not deleted runs from the snapshot. Callers hold mu.
func (s *Server) restoredFrom(snapshotID string) bool {
	return slices.ContainsFunc(s.sandboxes, func(sb *Sandbox) bool { return sb.SnapshotID == snapshotID && !sb.Deleted })
}

// snapshot finds a snapshot that has not been deleted. Callers hold mu.
func (s *Server) snapshot(id string) *Snapshot {
	for _, sn := range s.snapshots {
		if sn.ID == id && !sn.Deleted {
			return sn
		}
	}
	return nil
}

func (s *Server) liveSnapshot(id string, w http.ResponseWriter) *Snapshot {
	sn := s.snapshot(id)
	if sn == nil {
		writeError(w, http.StatusNotFound, "SNAPSHOT::NOT_FOUND", "Snapshot "+id+" not found")
	}
	return sn
}
