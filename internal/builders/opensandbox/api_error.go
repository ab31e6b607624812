package opensandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// APIError is a non-2xx answer of the lifecycle or execd API.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	// Code and Message come from the {code, message} body of HTTPException handlers.
	Code    string
	Message string
	// Validation lists "loc: msg" of a FastAPI 422 {detail: [...]} body. The echoed "input" is
	// dropped on purpose: it can hold the registry password we sent.
	Validation []string
	RequestID  string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "opensandbox: %s %s: HTTP %d", e.Method, e.Path, e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.Validation) > 0 {
		b.WriteString(": invalid request: " + strings.Join(e.Validation, "; "))
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + e.RequestID + ")")
	}
	return b.String()
}

// IsNotFound tells whether err is a 404 answer.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

func statusOf(err error) int {
	if e, ok := asAPIError(err); ok {
		return e.StatusCode
	}
	return 0
}

// parseAPIError reads both error shapes: {code, message} and 422 {detail: [...]}.
func parseAPIError(resp *http.Response, body []byte, method, path string) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-ID")}
	var shape struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shape) != nil {
		e.Message = http.StatusText(resp.StatusCode)
		return e
	}
	e.Code, e.Message = shape.Code, shape.Message
	var issues []struct {
		Loc []any  `json:"loc"`
		Msg string `json:"msg"`
	}
	var detailText string
	switch {
	case json.Unmarshal(shape.Detail, &issues) == nil:
		for _, issue := range issues {
			e.Validation = append(e.Validation, locString(issue.Loc)+": "+issue.Msg)
		}
	case json.Unmarshal(shape.Detail, &detailText) == nil && e.Message == "":
		e.Message = detailText // FastAPI's HTTPException default {detail: "..."}
	}
	return e
}

func locString(loc []any) string {
	parts := make([]string, 0, len(loc))
	for _, p := range loc {
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ".")
}

// atStage wraps err with stage, except that refused API credentials are always API_AUTH.
func atStage(stage builders.Stage, err error) error {
	if s := statusOf(err); s == http.StatusUnauthorized || s == http.StatusForbidden {
		stage = builders.StageAPIAuth
	}
	return builders.AtStage(stage, err)
}
