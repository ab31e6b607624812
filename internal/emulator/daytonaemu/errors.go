package daytonaemu

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// writeError writes the API's error body (filters/all-exceptions.filter.ts): the request path,
// a timestamp, the status, its reason phrase and the message; several validation messages are
// joined with ", " as the filter joins class-validator's array.
func writeError(w http.ResponseWriter, r *http.Request, status int, messages ...string) {
	writeJSON(w, status, map[string]any{
		"path":       r.URL.RequestURI(),
		"timestamp":  time.Now().UTC().Format(time.RFC3339Nano),
		"statusCode": status,
		"error":      http.StatusText(status),
		"message":    strings.Join(messages, ", "),
	})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// httpError is a refusal a handler returns: its status and message.
type httpError struct {
	status  int
	message string
}

func (e *httpError) Error() string { return e.message }

func badRequest(msg string) *httpError { return &httpError{http.StatusBadRequest, msg} }
func notFound(msg string) *httpError   { return &httpError{http.StatusNotFound, msg} }
func conflict(msg string) *httpError   { return &httpError{http.StatusConflict, msg} }
