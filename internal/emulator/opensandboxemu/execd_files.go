package opensandboxemu

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
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

// Bounds of an upload, which the emulator reads as it arrives (Streams): execd takes files of any
// size (to disk), and as many parts as Go's multipart reader does.
const (
	maxUploadParts    = 1000    // mime/multipart's default (GODEBUG multipartmaxparts)
	maxUploadMetadata = 1 << 20 // a metadata part is a line of JSON
	// MaxKeptContent is how much of an uploaded file FileWrite.Content keeps; its Size and SHA256 are of all of it.
	MaxKeptContent = 64 << 10
)

// uploadFiles answers POST /files/upload: multipart pairs of a "metadata" part and a "file" part,
// both read as file parts (they need a filename, as the SDKs send them), paired in order; the
// parent folders are made, then the permission applied (controller/filesystem_upload.go). Each
// file is hashed as it arrives; nothing of it is held but its first MaxKeptContent bytes.
func (s *Server) uploadFiles(w http.ResponseWriter, r *http.Request, sb *Sandbox) {
	parts, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_FILE", "multipart form is empty")
		return
	}
	var metas [][]byte
	var files []FileWrite
	for n := 0; ; n++ {
		part, err := parts.NextPart()
		if err == io.EOF {
			break
		}
		if err == nil && n == maxUploadParts {
			err = errors.New("multipart: message too large")
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, "INVALID_FILE", "reading the multipart form: "+err.Error())
			return
		}
		switch {
		case part.FileName() == "": // a plain field: execd reads files only
		case part.FormName() == "metadata":
			meta, err := io.ReadAll(io.LimitReader(part, maxUploadMetadata+1))
			if err != nil || len(meta) > maxUploadMetadata {
				writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "metadata file is unreadable or over 1 MiB")
				return
			}
			metas = append(metas, meta)
		case part.FormName() == "file":
			file, err := received(part)
			if err != nil {
				writeError(w, http.StatusBadRequest, "INVALID_FILE_CONTENT", "reading the file: "+err.Error())
				return
			}
			files = append(files, file)
		}
	}
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
	for i, file := range files {
		var meta struct {
			Path string `json:"path"`
			permission
		}
		if err := json.Unmarshal(metas[i], &meta); err != nil {
			writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "invalid metadata format. "+err.Error())
			return
		}
		if meta.Path == "" {
			writeError(w, http.StatusBadRequest, "INVALID_FILE_METADATA", "metadata path is empty")
			return
		}
		file.Path, file.Owner, file.Group, file.Mode = meta.Path, meta.Owner, meta.Group, meta.Mode
		s.mu.Lock()
		sb.Calls = append(sb.Calls, ExecdCall{Upload: &file})
		problem := ownerProblem(sb.machine, meta.Owner, meta.Group)
		// The sandbox's filesystem holds what the record keeps: a file's first MaxKeptContent bytes.
		_, _ = sb.machine.MkdirAll(path.Dir(path.Clean("/"+meta.Path)), 0o755, "")
		_ = sb.machine.WriteFile(path.Clean("/"+meta.Path), file.Content, meta.fileMode(0o644), ownerSpec(meta.permission, problem))
		s.mu.Unlock()
		if problem != "" {
			writeError(w, http.StatusInternalServerError, "RUNTIME_ERROR", fmt.Sprintf("error chmoding file %s. %s", meta.Path, problem))
			return
		}
	}
	w.WriteHeader(http.StatusOK)
}

// received reads a file part to its end: its size, its SHA-256 and its first MaxKeptContent bytes.
func received(part io.Reader) (FileWrite, error) {
	hash := sha256.New()
	kept := &bytes.Buffer{}
	size, err := io.Copy(io.MultiWriter(hash, &keepFirst{kept}), part)
	return FileWrite{Content: kept.Bytes(), Size: size, SHA256: hex.EncodeToString(hash.Sum(nil))}, err
}

// keepFirst keeps the first MaxKeptContent bytes written to it and accepts the rest unkept.
type keepFirst struct{ buf *bytes.Buffer }

func (k *keepFirst) Write(p []byte) (int, error) {
	k.buf.Write(p[:min(len(p), max(0, MaxKeptContent-k.buf.Len()))])
	return len(p), nil
}

// Streams tells serve's guard which requests the emulator reads as they arrive rather than
// whole: execd's file uploads.
func (s *Server) Streams(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/execd/") && strings.HasSuffix(r.URL.Path, "/files/upload")
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
