package opensandboxemu

import (
	"net/http"
	"strings"
)

// Fault makes the next Count requests matching Method and PathPrefix fail with Status before they
// are handled. An empty Method matches any method; PathPrefix matches the path with or without /v1.
type Fault struct {
	Method     string `json:"method"`
	PathPrefix string `json:"pathPrefix"`
	Status     int    `json:"status"` // e.g. 500, 503, 429
	Count      int    `json:"count"`
	// RetryAfter, when set, is sent as the Retry-After header (seconds).
	RetryAfter string `json:"retryAfter"`
	// EchoBody puts the request body in the error message, as FastAPI's 422 echoes its input and
	// proxies echo requests: a client must never print such a message whole (it may hold secrets).
	EchoBody bool `json:"echoBody"`
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

// message is the injected error's message, with the request body when EchoBody asks for it.
func (f *Fault) message(body []byte) string {
	if f.EchoBody {
		return "injected fault; request body: " + string(body)
	}
	return "injected fault"
}

func (f *Fault) code() string {
	if f.Status == http.StatusTooManyRequests {
		return "GENERAL::RATE_LIMITED"
	}
	return "GENERAL::UNKNOWN_ERROR"
}
