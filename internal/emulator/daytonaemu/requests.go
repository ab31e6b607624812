package daytonaemu

import (
	"net/http"
	"strings"
)

// Request is one request as the emulator received it (bodies are not kept: they carry registry
// passwords and env values).
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
}

// record keeps r.
func (s *Server) record(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := r.Header.Clone()
	h.Del("Authorization")
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: h})
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Fault makes the next Count requests matching Method and PathPrefix fail with Status before they
// are handled. An empty Method matches any method; PathPrefix matches the path without /api.
type Fault struct {
	Method     string `json:"method"`
	PathPrefix string `json:"pathPrefix"`
	Status     int    `json:"status"`
	Count      int    `json:"count"`
}

// InjectFault arms a fault. Faults are consumed in the order they were added.
func (s *Server) InjectFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

func (s *Server) takeFault(r *http.Request) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, APIPath)
	for _, f := range s.faults {
		if f.Count > 0 && (f.Method == "" || f.Method == r.Method) && strings.HasPrefix(path, f.PathPrefix) {
			f.Count--
			return f
		}
	}
	return nil
}
