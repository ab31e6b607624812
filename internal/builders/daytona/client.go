package daytona

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

const maxAttempts = 5

// organizationHeader names the organization a request acts for (optional with an API key).
const organizationHeader = "X-Daytona-Organization-ID"

// client is a small typed client of Daytona's API: endpoints in snapshots.go, registries.go and
// sandbox.go; sending, retrying and errors in apihttp. Daytona refuses a key with 401; its 403s
// are about the thing asked for (a general snapshot), so they keep their stage.
type client struct{ *apihttp.Client }

func newClient(base *url.URL, cfg Config) *client {
	c := &apihttp.Client{
		Name: "Daytona", BaseURL: base, HTTP: cfg.HTTPClient, UserAgent: cfg.UserAgent,
		APIKeyHeader: "Authorization", APIKey: builders.NewSecret("Bearer " + cfg.APIKey.Reveal()),
		Secrets:      []builders.Secret{cfg.APIKey},
		Retry:        apihttp.RetryPolicy{MaxAttempts: maxAttempts},
		ParseError:   parseError,
		AuthStatuses: []int{http.StatusUnauthorized}, AuthHint: "check " + EnvAPIKey + " or provider " + settingAPIKey.Path,
	}
	if cfg.OrganizationID != "" {
		c.Header = map[string]string{organizationHeader: cfg.OrganizationID}
	}
	return &client{c}
}

// parseError reads the API's error body (AllExceptionsFilter: {statusCode, error, message, path,
// timestamp}) and the toolbox daemon's ({statusCode, message, code, ...}).
func parseError(e *apihttp.Error, _ http.Header, body []byte) {
	var shape struct {
		Error   string          `json:"error"`
		Code    string          `json:"code"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(body, &shape) != nil {
		e.Code, e.Message = strconv.Itoa(e.StatusCode), http.StatusText(e.StatusCode)
		return
	}
	e.Code = shape.Code
	var text string
	var texts []string
	switch {
	case json.Unmarshal(shape.Message, &text) == nil:
	case json.Unmarshal(shape.Message, &texts) == nil: // a validation answer lists its problems
		e.Details = texts
	}
	if text == "" && len(texts) == 0 {
		text = shape.Error
	}
	e.Message = text
}

// apiGet is a GET of path into out.
func apiGet(path string, out any) apihttp.Request {
	return apihttp.Request{Method: http.MethodGet, Path: path, Out: out}
}
