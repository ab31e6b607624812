package opensandboxemu

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
)

func (s *Server) createSandbox(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, issues := decodeCreateSandbox(body)
	if len(issues) > 0 {
		writeValidation(w, issues)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, now := s.nextID("sbx")
	sb := &Sandbox{
		ID: id, Entrypoint: req.Entrypoint, ResourceLimits: req.ResourceLimits, Env: req.Env, Metadata: req.Metadata,
		Timeout: req.Timeout, State: StatePending, Reason: "provisioning", CreatedAt: now, accessToken: "execd-token-" + id,
	}
	if req.Image != nil {
		sb.Image, sb.Auth = req.Image.URI, req.Image.Auth
	}
	if req.SnapshotID != nil {
		if !s.restorable(*req.SnapshotID, w) {
			return
		}
		sb.SnapshotID = *req.SnapshotID
	}
	if reason := s.pullFailure(sb); reason != "" && s.opts.PullFailsOnCreate {
		writeError(w, http.StatusInternalServerError, "DOCKER::SANDBOX_IMAGE_PULL_FAILED", fmt.Sprintf("Failed to pull image %s: %s", sb.Image, reason))
		return
	}
	s.sandboxes = append(s.sandboxes, sb)
	w.Header().Set("Location", "/v1/sandboxes/"+id)
	writeJSON(w, http.StatusAccepted, map[string]any{
		"id": sb.ID, "status": statusJSON{State: sb.State, Reason: sb.Reason}, "metadata": sb.Metadata,
		"createdAt": timestamp(sb.CreatedAt), "entrypoint": sb.Entrypoint,
	})
}

// restorable checks a snapshotId like snapshot_restore.py. Callers hold mu.
func (s *Server) restorable(snapshotID string, w http.ResponseWriter) bool {
	sn := s.snapshot(snapshotID)
	switch {
	case sn == nil:
		writeError(w, http.StatusNotFound, "SNAPSHOT::NOT_FOUND", "snapshot "+snapshotID+" not found")
	case sn.State != SnapshotReady:
		writeError(w, http.StatusConflict, "SNAPSHOT::NOT_READY", "snapshot "+snapshotID+" is not Ready")
	default:
		return true
	}
	return false
}

// pullFailure says why the image of sb cannot be pulled, or "". Callers hold mu.
func (s *Server) pullFailure(sb *Sandbox) string {
	if sb.Image == "" {
		return ""
	}
	if slices.Contains(s.opts.UnpullableImages, sb.Image) {
		return "manifest unknown: image not found"
	}
	want, private := s.opts.PrivateImages[sb.Image]
	if private && (sb.Auth == nil || *sb.Auth != want) {
		return "pull access denied: unauthorized: authentication required"
	}
	return ""
}

func (s *Server) getSandbox(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	s.advanceSandbox(sb)
	writeJSON(w, http.StatusOK, sandboxView(sb))
}

// advanceSandbox moves a Pending sandbox on by one poll. Callers hold mu.
func (s *Server) advanceSandbox(sb *Sandbox) {
	if sb.State != StatePending {
		return
	}
	sb.polls++
	if s.opts.pendingPolls() < 0 || sb.polls < s.opts.pendingPolls() {
		return
	}
	if reason := s.pullFailure(sb); reason != "" {
		sb.State, sb.Reason, sb.Message = StateFailed, "ErrImagePull", "Failed to pull image "+sb.Image+": "+reason
		return
	}
	sb.State, sb.Reason, sb.Message = StateRunning, "", ""
}

func (s *Server) deleteSandbox(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	sb.Deleted, sb.State, sb.Reason = true, StateTerminated, "user_delete"
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) listSandboxes(w http.ResponseWriter, r *http.Request) {
	pageNum, pageSize, ok := pageQuery(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	states := r.URL.Query()["state"]
	var items []sandboxJSON
	for _, sb := range s.sandboxes {
		if !sb.Deleted && (len(states) == 0 || slices.Contains(states, sb.State)) {
			items = append(items, sandboxView(sb))
		}
	}
	writeJSON(w, http.StatusOK, page(items, pageNum, pageSize, s.opts.maxPageSize()))
}

func (s *Server) getEndpoint(w http.ResponseWriter, r *http.Request) {
	port, err := strconv.Atoi(r.PathValue("port"))
	if err != nil || port < 1 || port > 65535 {
		writeValidation(w, []validationIssue{{Type: "int_parsing", Loc: []any{"path", "port"}, Msg: "Input should be a valid port", Input: r.PathValue("port")}})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	if sb.State != StateRunning {
		writeError(w, http.StatusBadRequest, "SANDBOX::NOT_RUNNING", "sandbox "+sb.ID+" is "+sb.State)
		return
	}
	// Like the server, the endpoint has no scheme; only the execd port is served here.
	endpoint := fmt.Sprintf("%s/execd/%s", r.Host, sb.ID)
	if port != ExecdPort {
		endpoint = fmt.Sprintf("%s/sandboxes/%s/port/%d", r.Host, sb.ID, port)
	}
	writeJSON(w, http.StatusOK, map[string]any{"endpoint": endpoint, "headers": map[string]string{ExecdTokenHeader: sb.accessToken}})
}

// liveSandbox finds a sandbox that has not been deleted, or writes 404. Callers hold mu.
func (s *Server) liveSandbox(id string, w http.ResponseWriter) *Sandbox {
	for _, sb := range s.sandboxes {
		if sb.ID == id && !sb.Deleted {
			return sb
		}
	}
	writeError(w, http.StatusNotFound, "DOCKER::SANDBOX_NOT_FOUND", "sandbox "+id+" not found")
	return nil
}

// pageQuery parses page and pageSize (defaults 1 and 20, minimum 1).
func pageQuery(w http.ResponseWriter, r *http.Request) (pageNum, pageSize int, ok bool) {
	pageNum, pageSize = 1, 20
	for name, dst := range map[string]*int{"page": &pageNum, "pageSize": &pageSize} {
		v := r.URL.Query().Get(name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeValidation(w, []validationIssue{{Type: "greater_than_equal", Loc: []any{"query", name}, Msg: "Input should be greater than or equal to 1", Input: v}})
			return 0, 0, false
		}
		*dst = n
	}
	return pageNum, pageSize, true
}
