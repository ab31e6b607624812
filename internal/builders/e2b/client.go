package e2b

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

const (
	apiKeyHeader = "X-API-Key"
	maxAttempts  = 5
)

// client is a small typed client of E2B's template API: its endpoints are in templates.go, the
// sending, retrying and errors in apihttp.
type client struct{ *apihttp.Client }

// newClient is the API at base. Every call may be retried (GET and DELETE are idempotent, both
// POSTs are keyed: see templates.go). E2B refuses a key with 401 (packages/api/internal/auth); its
// 403s are about the thing asked for (another team's template, an alias in use), so they keep
// their stage.
func newClient(base *url.URL, cfg Config) *client {
	return &client{&apihttp.Client{
		Name: "E2B", BaseURL: base, HTTP: cfg.HTTPClient, UserAgent: cfg.UserAgent,
		APIKeyHeader: apiKeyHeader, APIKey: cfg.APIKey,
		Retry:        apihttp.RetryPolicy{MaxAttempts: maxAttempts},
		ParseError:   parseError,
		AuthStatuses: []int{http.StatusUnauthorized}, AuthHint: "check " + settingAPIKey.Env + " or provider " + settingAPIKey.Path,
	}}
}

// parseError reads the spec's Error schema {code, message}; a missing code is the status, a
// missing message its text.
func parseError(e *apihttp.Error, _ http.Header, body []byte) {
	var shape struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &shape) != nil || shape.Message == "" {
		e.Code, e.Message = strconv.Itoa(e.StatusCode), http.StatusText(e.StatusCode)
		return
	}
	e.Code, e.Message = strconv.Itoa(cmp.Or(shape.Code, e.StatusCode)), shape.Message
}
