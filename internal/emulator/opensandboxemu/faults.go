package opensandboxemu

import (
	"net/http"
	"strings"
)

// Fault makes the next Count requests matching Method and PathPrefix fail with Status before they
// are handled. An empty Method matches any method; PathPrefix matches the path with or without /v1.
type Fault struct {
	Method     string
	PathPrefix string
	Status     int // e.g. 500, 503, 429
	Count      int
	// RetryAfter, when set, is sent as the Retry-After header (seconds).
	RetryAfter string
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
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	for _, f := range s.faults {
		if f.Count > 0 && (f.Method == "" || f.Method == r.Method) && strings.HasPrefix(path, f.PathPrefix) {
			f.Count--
			return f
		}
	}
	return nil
}

func (f *Fault) code() string {
	if f.Status == http.StatusTooManyRequests {
		return "GENERAL::RATE_LIMITED"
	}
	return "GENERAL::UNKNOWN_ERROR"
}
