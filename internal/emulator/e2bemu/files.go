package e2bemu

import (
	"io"
	"net/http"
	"regexp"
	"strings"
)

// Layer files of COPY steps (handlers/template_layer_files_upload.go): the client asks whether a
// tar of the files is present for the template and, when it is not, PUTs it to the link it gets.
// The link points back at the emulator, under UploadPrefix, as E2B's points at a signed bucket URL
// (no API key).

// UploadPrefix is where the emulator receives layer file uploads: PUT UploadPrefix<templateID>/<hash>.
const UploadPrefix = ControlPrefix + "uploads/"

var filesHashRegex = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (s *Server) fileUploadLink(w http.ResponseWriter, r *http.Request) {
	hash := r.PathValue("hash")
	if !filesHashRegex.MatchString(hash) {
		writeError(w, http.StatusBadRequest, "Invalid files hash")
		return
	}
	s.lock()
	defer s.mu.Unlock()
	t := s.byID(r.PathValue("templateID"))
	if t == nil || t.foreign {
		writeError(w, http.StatusNotFound, "Error when getting template: no rows in result set")
		return
	}
	if s.files[hash] { // the team's files (GetLayerFilesCachePath: the cache scope is the team)
		writeJSON(w, http.StatusCreated, templateBuildFileUpload{Present: true})
		return
	}
	url := "http://" + r.Host + UploadPrefix + t.id + "/" + hash
	writeJSON(w, http.StatusCreated, templateBuildFileUpload{Present: false, URL: &url})
}

// receiveUpload stores a template's files with this hash (a gzipped tar, unpacked by COPY steps).
func (s *Server) receiveUpload(w http.ResponseWriter, r *http.Request) {
	templateID, hash, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, UploadPrefix), "/")
	if r.Method != http.MethodPut || !ok || !filesHashRegex.MatchString(hash) {
		writeError(w, http.StatusBadRequest, "PUT "+UploadPrefix+"<templateID>/<64 hex hash> only")
		return
	}
	data, err := io.ReadAll(r.Body)
	if err != nil || len(data) == 0 {
		writeError(w, http.StatusBadRequest, "an upload needs a body (a tar of the files)")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID(templateID)
	if t == nil {
		writeError(w, http.StatusNotFound, "no template "+templateID)
		return
	}
	s.files[hash], s.fileData[hash] = true, data
	w.WriteHeader(http.StatusOK)
}

// Streams tells serve's guard which requests the emulator reads as they arrive rather than
// whole: layer file uploads, counted and discarded.
func (s *Server) Streams(r *http.Request) bool {
	return r.Method == http.MethodPut && strings.HasPrefix(r.URL.Path, UploadPrefix)
}
