package opensandboxemu

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

func (s *Server) createSandbox(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req, issues := decodeCreateSandbox(body)
	if len(issues) > 0 {
		writeValidation(w, issues)
		return
	}
	if problem := metadataProblem(req.Metadata); problem != "" {
		writeError(w, http.StatusBadRequest, "SANDBOX::INVALID_METADATA_LABEL", problem)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if limit := s.opts.MaxSandboxTimeoutSeconds; limit > 0 && req.Timeout != nil && *req.Timeout > limit {
		// validators.py ensure_timeout_within_limit
		writeError(w, http.StatusBadRequest, "SANDBOX::INVALID_PARAMETER",
			fmt.Sprintf("Sandbox timeout %ds exceeds configured maximum of %ds.", *req.Timeout, limit))
		return
	}
	sb := &Sandbox{
		Entrypoint: req.Entrypoint, ResourceLimits: req.ResourceLimits, Env: req.Env, Metadata: req.Metadata,
		Timeout: req.Timeout,
	}
	if req.Image != nil {
		sb.Image, sb.Auth, sb.runsImage = req.Image.URI, req.Image.Auth, req.Image.URI
	}
	if req.SnapshotID != nil {
		sn := s.restorable(*req.SnapshotID, w)
		if sn == nil {
			return
		}
		sb.SnapshotID, sb.runsImage, sb.machine = sn.ID, sn.Image, sn.machine.Clone()
		if len(sb.Entrypoint) == 0 { // snapshot_restore.py DEFAULT_SNAPSHOT_RESTORE_ENTRYPOINT
			sb.Entrypoint = []string{"tail", "-f", "/dev/null"}
		}
	}
	pending := s.opts.PendingPolls != 0
	if reason := s.pullFailure(sb); reason != "" && !pending {
		writeError(w, http.StatusInternalServerError, "DOCKER::SANDBOX_IMAGE_PULL_FAILED", fmt.Sprintf("Failed to pull image %s: %s", sb.Image, reason))
		return
	}
	id, now := s.nextID("sbx")
	sb.ID, sb.CreatedAt, sb.accessToken = id, now, "execd-token-"+id
	if sb.Timeout != nil { // docker_service.py _prepare_creation_context; none means manual cleanup
		sb.ExpiresAt = now.Add(time.Duration(*sb.Timeout) * time.Second)
	}
	sb.State, sb.Reason, sb.Message = StateRunning, "CONTAINER_RUNNING", "Sandbox container started successfully."
	if pending {
		sb.State, sb.Reason, sb.Message = StatePending, "CONTAINER_STARTING", "Sandbox container is starting."
	}
	s.sandboxes = append(s.sandboxes, sb)
	w.Header().Set("Location", "/v1/sandboxes/"+id)
	view := sandboxView(sb) // CreateSandboxResponse: these fields of it, none left null
	writeJSON(w, http.StatusAccepted, createSandboxResponse{ID: view.ID, Status: statusJSON{State: sb.State, Reason: sb.Reason, Message: sb.Message},
		Metadata: view.Metadata, ExpiresAt: view.ExpiresAt, CreatedAt: view.CreatedAt, Entrypoint: view.Entrypoint})
	if !pending {
		s.start(sb) // the container started; its entrypoint may end it right away
	}
}

// start runs the entrypoint of a sandbox that just turned Running. Callers hold mu.
func (s *Server) start(sb *Sandbox) {
	code, ends := s.entrypointExit(sb)
	switch {
	case !ends:
	case s.opts.EntrypointExitsAfter > 0:
		sb.exit = &pendingExit{code: code, seenBefore: s.opts.EntrypointExitsAfter}
	default:
		sb.endWith(code)
	}
}

// observe is one request about sb: an entrypoint's pending end shows once enough requests have
// seen the sandbox Running. Callers hold mu.
func (s *Server) observe(sb *Sandbox) {
	switch {
	case sb.exit == nil:
	case sb.exit.seenBefore > 0:
		sb.exit.seenBefore--
	default:
		sb.endWith(sb.exit.code)
		sb.exit = nil
	}
}

// restorable finds a snapshot to restore, checked like snapshot_restore.py, or writes the error.
// Callers hold mu.
func (s *Server) restorable(snapshotID string, w http.ResponseWriter) *Snapshot {
	sn := s.snapshot(snapshotID)
	switch {
	case sn == nil:
		writeError(w, http.StatusNotFound, "SNAPSHOT::NOT_FOUND", "snapshot "+snapshotID+" not found")
	case sn.State != SnapshotReady:
		writeError(w, http.StatusConflict, "SNAPSHOT::NOT_READY", "snapshot "+snapshotID+" is not Ready")
	default:
		return sn
	}
	return nil
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
	if sb.machine != nil {
		return ""
	}
	m, problem := s.boot(sb.Image)
	sb.machine = m
	return problem
}

func (s *Server) getSandbox(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	s.advanceSandbox(sb)
	s.observe(sb)
	writeJSON(w, http.StatusOK, sandboxView(sb))
}

// advanceSandbox moves a Pending sandbox (PendingPolls set) on by one poll. Callers hold mu.
func (s *Server) advanceSandbox(sb *Sandbox) {
	if sb.State != StatePending {
		return
	}
	sb.polls++
	if s.opts.PendingPolls < 0 || sb.polls <= s.opts.PendingPolls {
		return
	}
	if reason := s.pullFailure(sb); reason != "" {
		sb.State, sb.Reason, sb.Message = StateFailed, "ErrImagePull", "Failed to pull image "+sb.Image+": "+reason
		return
	}
	sb.State, sb.Reason, sb.Message = StateRunning, "CONTAINER_RUNNING", "Sandbox container is running."
	s.start(sb)
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
	filter, err := metadataFilter(r.URL.Query().Get("metadata"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_METADATA_FORMAT", "Invalid metadata format: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	states := r.URL.Query()["state"]
	var items []sandboxJSON
	// docker_service.py list_sandboxes: newest first; services/helpers.py matches_filter: states
	// case-insensitively, every metadata key given.
	for _, sb := range slices.Backward(s.sandboxes) {
		inState := len(states) == 0 || slices.ContainsFunc(states, func(st string) bool { return strings.EqualFold(st, sb.State) })
		if !sb.Deleted && inState && matchesMetadata(sb.Metadata, filter) {
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
	// The endpoint is answered in any state, as docker/networking.py get_endpoint does: whether
	// something listens there is execd's business (see execd.go). Like the server, the endpoint has no scheme; only the execd port is served here.
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
	writeError(w, http.StatusNotFound, "DOCKER::SANDBOX_NOT_FOUND", "Sandbox "+id+" not found.")
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
