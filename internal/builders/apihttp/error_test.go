package apihttp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
)

// echoParser copies the body into every text of the error, as a server echoing the request
// might.
func echoParser(e *Error, h http.Header, body []byte) {
	text := string(body)
	e.Code, e.Message, e.Details, e.RequestID = text, text, []string{"body.x: " + text}, h.Get("X-Request-ID")
}

// Every text of an error (code, message, details, request id, Retry-After) is scrubbed of the
// client's API key, its other secrets and the request's, in every form builders.Scrub knows:
// verbatim, JSON-escaped, URL-encoded and base64.
func TestErrorsAreScrubbedOfEverySecret(t *testing.T) {
	const apiKey, clientSecret, requestSecret = `api-key-"1"<&>/+=`, "execd-token-9d8c7b6a", `registry pa55 "word"`
	var echoed []string
	for _, s := range []string{apiKey, clientSecret, requestSecret} {
		echoed = append(echoed, buildertest.SecretForms(s)...)
	}
	text := strings.Join(echoed, " | ")
	body, _ := json.Marshal(text)
	_, base := newScripted(t, answer{status: http.StatusBadGateway, body: string(body), retryAfter: apiKey,
		header: http.Header{"X-Request-Id": {requestSecret}}})
	c, _ := testClient(base, 1)
	c.APIKeyHeader, c.APIKey, c.Secrets, c.ParseError = "X-Key", builders.NewSecret(apiKey), []builders.Secret{builders.NewSecret(clientSecret)}, echoParser

	err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/x", In: map[string]string{"p": requestSecret},
		Secrets: []builders.Secret{builders.NewSecret(requestSecret)}})
	e, ok := AsError(err)
	if !ok || e.StatusCode != http.StatusBadGateway || !strings.Contains(e.Message, builders.Redacted) {
		t.Fatalf("err = %v, want the echoed 502, redacted", err)
	}
	for field, value := range map[string]string{"Code": e.Code, "Message": e.Message, "Details": strings.Join(e.Details, ";"),
		"RequestID": e.RequestID, "RetryAfter": e.RetryAfter, "Error()": err.Error(), "AtStage": builders.AtStage(builders.StageSnapshot, err).Error()} {
		buildertest.AssertNoSecretForms(t, field, value, apiKey, clientSecret, requestSecret)
	}
}

func TestNotFoundAndStatus(t *testing.T) {
	_, base := newScripted(t, answer{status: http.StatusNotFound, body: "gone"})
	c, _ := testClient(base, 3)
	err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"})
	if !IsNotFound(err) || StatusOf(err) != http.StatusNotFound {
		t.Errorf("err = %v, want a 404", err)
	}
	wrapped := builders.AtStage(builders.StageTemplateLookup, err)
	if !IsNotFound(wrapped) || StatusOf(wrapped) != http.StatusNotFound {
		t.Errorf("a wrapped 404 is no longer found: %v", wrapped)
	}
	if IsNotFound(nil) || StatusOf(http.ErrHandlerTimeout) != 0 {
		t.Error("only an *Error has a status")
	}
}

func TestErrorText(t *testing.T) {
	for _, tt := range []struct {
		e    Error
		want string
	}{
		{Error{Backend: "E2B", Method: "GET", Path: "/t", StatusCode: 404, Code: "404", Message: "not found"},
			"e2b: GET /t: HTTP 404: not found"}, // a code that repeats the status says nothing
		{Error{Backend: "OpenSandbox", Method: "POST", Path: "/sandboxes", StatusCode: 422, Code: "BAD",
			Details: []string{"body.a: required", "body.b: too long"}, RequestID: "r-1"},
			"opensandbox: POST /sandboxes: HTTP 422 BAD: invalid request: body.a: required; body.b: too long (request id r-1)"},
		{Error{Backend: "OpenSandbox", Method: "GET", Path: "/x", StatusCode: 500}, "opensandbox: GET /x: HTTP 500"},
	} {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
