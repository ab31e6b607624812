package opensandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

const (
	apiKeyHeader = "OPEN-SANDBOX-API-KEY"
	maxAttempts  = 4
)

// client is a small typed client of the lifecycle API: its endpoints are in lifecycle.go, the
// sending, retrying and errors in apihttp.
type client struct{ *apihttp.Client }

// newClient is the lifecycle API at base. Calls retry by method: a repeated POST that reached the
// server could create a second sandbox or snapshot. The server refuses a missing or wrong key with
// 401 (OSB server/src/middleware/auth.py: MISSING_API_KEY, INVALID_API_KEY); a 403 has always
// counted as refused credentials here too.
func newClient(base *url.URL, cfg Config, httpClient *http.Client) *client {
	return &client{&apihttp.Client{
		Name: "OpenSandbox", BaseURL: base, HTTP: httpClient, UserAgent: cfg.UserAgent,
		APIKeyHeader: apiKeyHeader, APIKey: cfg.APIKey,
		Retry:        apihttp.RetryPolicy{MaxAttempts: maxAttempts},
		ParseError:   parseError,
		AuthStatuses: []int{http.StatusUnauthorized, http.StatusForbidden},
		AuthHint:     "check " + settingAPIKey.Env + " or provider " + settingAPIKey.Path,
	}}
}

// parseError reads both error shapes of the server: {code, message} of its HTTPException
// handlers, and FastAPI's {detail: [...]} (422) or {detail: "..."}. A 422's echoed "input" is
// dropped on purpose: it can hold the registry password we sent.
func parseError(e *apihttp.Error, header http.Header, body []byte) {
	e.RequestID = header.Get("X-Request-ID")
	var shape struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shape) != nil {
		e.Message = http.StatusText(e.StatusCode)
		return
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
			e.Details = append(e.Details, locString(issue.Loc)+": "+issue.Msg)
		}
	case json.Unmarshal(shape.Detail, &detailText) == nil && e.Message == "":
		e.Message = detailText
	}
}

func locString(loc []any) string {
	parts := make([]string, 0, len(loc))
	for _, p := range loc {
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ".")
}
