package e2b

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// APIError is a non-2xx answer of the E2B API, read from the spec's Error schema {code, message}.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	Code       int
	Message    string
	RetryAfter string // the Retry-After header, if any
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "e2b: %s %s: HTTP %d", e.Method, e.Path, e.StatusCode)
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// IsNotFound tells whether err is a 404 answer.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

func statusOf(err error) int {
	if e := asAPIError(err); e != nil {
		return e.StatusCode
	}
	return 0
}

func retryAfterOf(err error) string {
	if e := asAPIError(err); e != nil {
		return e.RetryAfter
	}
	return ""
}

func asAPIError(err error) *APIError {
	var e *APIError
	if errors.As(err, &e) {
		return e
	}
	return nil
}

func parseAPIError(resp *http.Response, body []byte, method, path string) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: resp.StatusCode}
	var shape struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &shape) != nil || shape.Message == "" {
		e.Code, e.Message = resp.StatusCode, http.StatusText(resp.StatusCode)
		return e
	}
	e.Code, e.Message = shape.Code, shape.Message
	return e
}

// errAuth is the API_AUTH error of a refused API key; the key itself is never shown.
type errAuth struct{ cause *APIError }

func (e *errAuth) Error() string {
	return fmt.Sprintf("E2B rejected the API key (%d): check E2B_API_KEY or provider e2b.api_key (%s)", e.cause.StatusCode, e.cause.Message)
}
func (e *errAuth) Unwrap() error { return e.cause }

// atStage wraps err with stage, except that a refused API key is always API_AUTH with a message
// that says which setting to fix. E2B refuses a key with 401 (packages/api/internal/auth); its 403s
// are about the thing asked for (another team's template, an alias in use), so they keep the stage.
func atStage(stage builders.Stage, err error, logs ...string) error {
	if apiErr := asAPIError(err); apiErr != nil && apiErr.StatusCode == http.StatusUnauthorized {
		return builders.AtStage(builders.StageAPIAuth, &errAuth{cause: apiErr}, logs...)
	}
	return builders.AtStage(stage, err, logs...)
}
