package opensandboxemu

import (
	"bytes"
	"io"
	"net/http"
	"strings"
)

// Request is one request as the emulator received it.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
}

// record keeps r and returns its body (r.Body is replaced, so handlers can still read it). The
// body is kept only of a request that carries its credential: anyone can send the others; nor of
// a file upload, read as it arrives (Streams).
func (s *Server) record(r *http.Request) []byte {
	var body []byte
	if !s.Streams(r) {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := body
	if !s.carriesCredential(r) {
		kept = nil
	}
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: kept})
	return body
}

// carriesCredential tells whether r has the API key (when one is set) or, for a sandbox's execd,
// that sandbox's access token. Callers hold mu.
func (s *Server) carriesCredential(r *http.Request) bool {
	if id, ok := strings.CutPrefix(r.URL.Path, "/execd/"); ok {
		id, _, _ = strings.Cut(id, "/")
		for _, sb := range s.sandboxes {
			if sb.ID == id {
				return r.Header.Get(ExecdTokenHeader) == sb.accessToken
			}
		}
		return false
	}
	return s.opts.APIKey == "" || r.Header.Get("OPEN-SANDBOX-API-KEY") == s.opts.APIKey
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Sandboxes returns every sandbox ever created, deleted ones included, in creation order.
func (s *Server) Sandboxes() []Sandbox {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Sandbox, 0, len(s.sandboxes))
	for _, sb := range s.sandboxes {
		out = append(out, sb.clone())
	}
	return out
}

// Snapshots returns every snapshot ever created, deleted ones included, in creation order.
func (s *Server) Snapshots() []Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Snapshot, 0, len(s.snapshots))
	for _, sn := range s.snapshots {
		out = append(out, sn.clone())
	}
	return out
}

// AddSnapshot seeds a snapshot in the given state (as if an earlier build had made it) and
// returns its id. A restore runs it on an image with only a shell and coreutils.
func (s *Server) AddSnapshot(name, state string) string { return s.SeedSnapshot(name, state, "") }

// SeedSnapshot is AddSnapshot of a snapshot taken from a sandbox of image.
func (s *Server) SeedSnapshot(name, state, image string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, now := s.nextID("snap")
	s.snapshots = append(s.snapshots, &Snapshot{ID: id, SandboxID: "seeded", Name: name, Image: image, State: state, CreatedAt: now, machine: s.bootSeeded(image)})
	return id
}
