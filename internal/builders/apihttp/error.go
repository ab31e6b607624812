package apihttp

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Error is a non-2xx answer of a backend API. Every text in it is scrubbed of the secrets in
// play before anyone sees it.
type Error struct {
	Backend    string // Client.Name
	Method     string
	Path       string
	StatusCode int
	Code       string   // the body's error code, if any
	Message    string   // the body's message, if any
	Details    []string // "loc: msg" of a validation answer (FastAPI's 422)
	RequestID  string
	RetryAfter string // the Retry-After header, if any
	authHint   string // set when the status means refused API credentials: the setting to fix
}

// ErrorParser reads a backend's error body into e, whose status and request are already set.
type ErrorParser func(e *Error, header http.Header, body []byte)

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s %s: HTTP %d%s", strings.ToLower(e.Backend), e.Method, e.Path, e.StatusCode, e.summary())
}

// summary is what the body and headers said. A code that only repeats the status (E2B's
// {code: 404}) is left out.
func (e *Error) summary() string {
	var b strings.Builder
	if e.Code != "" && e.Code != strconv.Itoa(e.StatusCode) {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.Details) > 0 {
		b.WriteString(": invalid request: " + strings.Join(e.Details, "; "))
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + e.RequestID + ")")
	}
	return b.String()
}

// scrub passes every text through builders.Scrub, in each form a server may echo a secret in.
func (e *Error) scrub(secrets []builders.Secret) {
	for _, text := range []*string{&e.Code, &e.Message, &e.RequestID, &e.RetryAfter} {
		*text = builders.Scrub(*text, secrets...)
	}
	for i := range e.Details {
		e.Details[i] = builders.Scrub(e.Details[i], secrets...)
	}
}

// AsError returns the *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// StatusOf is the HTTP status of err's *Error, or 0.
func StatusOf(err error) int {
	if e, ok := AsError(err); ok {
		return e.StatusCode
	}
	return 0
}

// IsNotFound tells whether err is a 404 answer.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// RetryAfterOf is err's Retry-After as a delay, when the server sent a readable one.
func RetryAfterOf(err error) (time.Duration, bool) {
	if e, ok := AsError(err); ok {
		return ParseRetryAfter(e.RetryAfter, time.Now())
	}
	return 0, false
}
