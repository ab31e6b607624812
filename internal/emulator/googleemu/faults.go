package googleemu

import (
	"errors"
	"net/http"
)

// Fault makes the next Count token requests fail before they are looked at. The JSON form is what
// POST /_emulator/faults takes.
type Fault struct {
	Count  int `json:"count"`
	Status int `json:"status"` // 4xx or 5xx
	// Error is the OAuth2 error code (RFC 6749 section 5.2) sent; empty: "temporarily_unavailable"
	// for 429 and 5xx, "invalid_request" otherwise.
	Error       string `json:"error,omitempty"`
	Description string `json:"errorDescription,omitempty"`
	// EchoBody quotes the request body (the form with the signed assertion) in error_description:
	// a test can then check that a client keeps such answers out of its logs.
	EchoBody bool `json:"echoBody,omitempty"`
}

// InjectFault arms f. Faults are consumed in the order they were armed.
func (s *Server) InjectFault(f Fault) error {
	if f.Count < 1 || f.Status < 400 || f.Status > 599 {
		return errors.New("googleemu: a fault needs count >= 1 and a 4xx or 5xx status")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
	return nil
}

// takeFault consumes one armed fault, if any, as the error to answer with.
func (s *Server) takeFault(body []byte) *oauthError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) == 0 {
		return nil
	}
	f := *s.faults[0]
	if s.faults[0].Count--; s.faults[0].Count == 0 {
		s.faults = s.faults[1:]
	}
	code, description := f.Error, f.Description
	if code == "" && (f.Status == http.StatusTooManyRequests || f.Status >= 500) {
		code = "temporarily_unavailable"
	} else if code == "" {
		code = "invalid_request"
	}
	if description == "" {
		description = http.StatusText(f.Status) + " (injected by googleemu)"
	}
	if f.EchoBody {
		description += "; request body: " + string(body)
	}
	return &oauthError{status: f.Status, code: code, description: description}
}
