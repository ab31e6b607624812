package opensandboxemu

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
)

// The operations on a sandbox other than create, get and delete, as the Docker runtime does them
// (OSB services/docker/docker_service.py). Each answers 404 DOCKER::SANDBOX_NOT_FOUND for a
// sandbox it does not know.

// pauseSandbox pauses a Running container: 202, or 409 when it is not running.
func (s *Server) pauseSandbox(w http.ResponseWriter, r *http.Request) {
	s.transition(w, r, StateRunning, "DOCKER::SANDBOX_NOT_RUNNING", "Sandbox is not in a running state.",
		StatePaused, "CONTAINER_PAUSED", "Sandbox container is paused.")
}

// resumeSandbox unpauses a Paused container: 202, or 409 when it is not paused.
func (s *Server) resumeSandbox(w http.ResponseWriter, r *http.Request) {
	s.transition(w, r, StatePaused, "DOCKER::SANDBOX_NOT_PAUSED", "Sandbox is not in a paused state.",
		StateRunning, "CONTAINER_RUNNING", "Sandbox container is running.")
}

func (s *Server) transition(w http.ResponseWriter, r *http.Request, from, refusedCode, refused, to, reason, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	s.observe(sb)
	if sb.State != from {
		writeError(w, http.StatusConflict, refusedCode, refused)
		return
	}
	sb.State, sb.Reason, sb.Message = to, reason, message
	w.WriteHeader(http.StatusAccepted)
}

// renewExpiration sets a new expiresAt: it must be in the future, and the sandbox must have one.
func (s *Server) renewExpiration(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ExpiresAt *time.Time `json:"expiresAt"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil || req.ExpiresAt == nil {
		writeValidation(w, []validationIssue{{Type: "missing", Loc: []any{"body", "expiresAt"}, Msg: "Field required", Input: string(body)}})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	switch {
	case sb == nil:
	case !req.ExpiresAt.After(s.clock): // validators.py ensure_future_expiration
		writeError(w, http.StatusBadRequest, "DOCKER::INVALID_EXPIRATION", "New expiration time must be in the future.")
	case sb.ExpiresAt.IsZero():
		writeError(w, http.StatusConflict, "DOCKER::INVALID_EXPIRATION", "Sandbox "+sb.ID+" does not have automatic expiration enabled.")
	default:
		sb.ExpiresAt = req.ExpiresAt.UTC()
		writeJSON(w, http.StatusOK, map[string]string{"expiresAt": timestamp(sb.ExpiresAt)})
	}
}

// patchMetadata merges a JSON Merge Patch (RFC 7396) into the metadata: null deletes a key. Keys
// under the reserved prefix and values that are no label are refused (400).
func (s *Server) patchMetadata(w http.ResponseWriter, r *http.Request) {
	var patch map[string]*string
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &patch); err != nil {
		writeValidation(w, []validationIssue{{Type: "dict_type", Loc: []any{"body"}, Msg: "Input should be a valid dictionary", Input: string(body)}})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveSandbox(r.PathValue("sandboxId"), w)
	if sb == nil {
		return
	}
	additions := map[string]string{}
	for key, value := range patch {
		if strings.HasPrefix(key, reservedLabelPrefix) {
			writeError(w, http.StatusBadRequest, "INVALID_METADATA_LABEL", "Metadata key '"+key+"' is reserved (opensandbox.io/ prefix).")
			return
		}
		if value != nil {
			additions[key] = *value
		}
	}
	if problem := metadataProblem(additions); problem != "" {
		writeError(w, http.StatusBadRequest, "SANDBOX::INVALID_METADATA_LABEL", problem)
		return
	}
	merged := map[string]string{}
	for key, value := range sb.Metadata {
		merged[key] = value
	}
	for key, value := range patch {
		if value == nil {
			delete(merged, key)
		} else {
			merged[key] = *value
		}
	}
	sb.Metadata = merged
	writeJSON(w, http.StatusOK, sandboxView(sb))
}
