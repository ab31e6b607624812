package opensandboxemu

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
)

// permission is execd's model.Permission (owner and group names, mode in octal digits).
type permission struct {
	Owner string `json:"owner"`
	Group string `json:"group"`
	Mode  int    `json:"mode"`
}

// makeDirs answers POST /directories {path: permission}: MkdirAll, and the permission on a folder
// it creates, its owner looked up by name (controller/filesystem.go MakeDirs, utils.go MakeDir).
func (s *Server) makeDirs(w http.ResponseWriter, r *http.Request, sb *Sandbox) {
	var req map[string]permission
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_BODY", "error parsing request, MAYBE invalid body format. "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir, perm := range req {
		sb.Calls = append(sb.Calls, ExecdCall{MakeDir: &FileWrite{Path: dir, Owner: perm.Owner, Group: perm.Group, Mode: perm.Mode}})
		problem := ownerProblem(sb.machine, perm.Owner, perm.Group)
		created, _ := sb.machine.MkdirAll(path.Clean("/"+dir), perm.fileMode(0o755), ownerSpec(perm, problem))
		if len(created) > 0 && problem != "" {
			writeError(w, http.StatusInternalServerError, "RUNTIME_ERROR", "error accessing file: "+problem)
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}

// uploadFiles answers POST /files/upload: multipart pairs of a "metadata" part and a "file" part,
// both read as file parts (they need a filename, as the SDKs send them), in order; the parent
// folders are made, then the permission applied (controller/filesystem_upload.go).
func (s *Server) uploadFiles(w http.ResponseWriter, r *http.Request, sb *Sandbox) {
	if err := r.ParseMultipartForm(32 << 20); err != nil || r.MultipartForm == nil {
		writeError(w, http.StatusBadRequest, "INVALID_FILE", "multipart form is empty")
		return
	}
	metas, files := r.MultipartForm.File["metadata"], r.MultipartForm.File["file"]
	switch {
	case len(metas) == 0:
		writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "metadata file is missing")
		return
	case len(files) == 0:
		writeError(w, http.StatusBadRequest, "INVALID_FILE_CONTENT", "file is missing")
		return
	case len(metas) != len(files):
		writeError(w, http.StatusBadRequest, "INVALID_FILE", fmt.Sprintf("metadata and file count mismatch: %d vs %d", len(metas), len(files)))
		return
	}
	for i := range metas {
		var meta struct {
			Path string `json:"path"`
			permission
		}
		if err := json.Unmarshal(readPart(metas[i].Open()), &meta); err != nil {
			writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "invalid metadata format. "+err.Error())
			return
		}
		if meta.Path == "" {
			writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "metadata path is empty")
			return
		}
		content := readPart(files[i].Open())
		s.mu.Lock()
		sb.Calls = append(sb.Calls, ExecdCall{Upload: &FileWrite{Path: meta.Path, Owner: meta.Owner, Group: meta.Group, Mode: meta.Mode, Content: content}})
		problem := ownerProblem(sb.machine, meta.Owner, meta.Group)
		_, _ = sb.machine.MkdirAll(path.Dir(path.Clean("/"+meta.Path)), 0o755, "")
		_ = sb.machine.WriteFile(path.Clean("/"+meta.Path), content, meta.fileMode(0o644), ownerSpec(meta.permission, problem))
		s.mu.Unlock()
		if problem != "" {
			writeError(w, http.StatusInternalServerError, "RUNTIME_ERROR", fmt.Sprintf("error chmoding file %s. %s", meta.Path, problem))
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}

// fileMode is the permission's mode (octal digits, 644 for 0644), or def when it has none.
func (p permission) fileMode(def fs.FileMode) fs.FileMode {
	if m, err := strconv.ParseUint(strconv.Itoa(p.Mode), 8, 32); err == nil && p.Mode > 0 {
		return fs.FileMode(m)
	}
	return def
}

// ownerSpec is "owner:group" for sandboxos, or root's when execd could not look them up.
func ownerSpec(p permission, problem string) string {
	if problem != "" {
		return ""
	}
	if p.Group == "" {
		return p.Owner
	}
	return p.Owner + ":" + p.Group
}

func readPart(f io.ReadCloser, err error) []byte {
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	b, _ := io.ReadAll(f)
	return b
}
