// Package contract validates HTTP traffic against a backend's published OpenAPI spec with
// kin-openapi. A Validator sits on the client side (Transport, Client) or around a handler (Wrap);
// every request and response that does not match the spec fails the test.
package contract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Options adapt the validator to where and how a backend departs from its spec.
type Options struct {
	// KeyHeader is the API key header the client authenticates with; every other security scheme
	// is rejected, so a request cannot pass on an alternative the project never uses. Empty
	// accepts any API key header scheme whose header is sent.
	KeyHeader string
	// Path maps a request's path onto the spec's, for a backend an emulator serves under a prefix.
	Path func(path string) string
	// Undeclared judges a response whose status the operation does not declare; nil tolerates it.
	// Without it every such response is a violation.
	Undeclared func(status int, header http.Header, body []byte) error
	// EventSchema names the component schema each line of a text/event-stream response must
	// match: no OpenAPI media type describes a stream of events, so the spec names the event instead.
	EventSchema string
}

// Validator checks exchanges against one spec and fails the test on each violation.
type Validator struct {
	t      testing.TB
	opts   Options
	router routers.Router
	server *url.URL         // the spec's first server: requests are mapped onto it to find their route
	events *openapi3.Schema // Options.EventSchema, resolved

	mu         sync.Mutex
	seen       map[string]int
	violations []string
}

// NewValidator validates traffic (to any host) against doc.
func NewValidator(t testing.TB, doc *openapi3.T, opts Options) *Validator {
	t.Helper()
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("building the spec's router: %v", err)
	}
	server, err := url.Parse(doc.Servers[0].URL)
	if err != nil {
		t.Fatalf("spec server URL: %v", err)
	}
	v := &Validator{t: t, opts: opts, router: router, server: server, seen: map[string]int{}}
	if opts.EventSchema != "" {
		ref := doc.Components.Schemas[opts.EventSchema]
		if ref == nil || ref.Value == nil {
			t.Fatalf("the spec has no %s schema", opts.EventSchema)
		}
		v.events = ref.Value
	}
	return v
}

// Seen counts the exchanges validated for an operation, e.g. "POST /v3/templates".
func (v *Validator) Seen(op string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[op]
}

// Violations lists every violation reported so far.
func (v *Validator) Violations() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.violations...)
}

func (v *Validator) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	v.mu.Lock()
	v.violations = append(v.violations, msg)
	v.mu.Unlock()
	v.t.Errorf("contract violation: %s", msg)
}

// response is what came back; nil means the connection broke, and only the request is checked.
type response struct {
	status int
	header http.Header
	body   []byte
}

// check validates one exchange. A bad request does not stop the response from being checked too.
func (v *Validator) check(req *http.Request, body []byte, resp *response) {
	ctx := context.Background()
	where := req.Method + " " + req.URL.Path
	mapped := req.Clone(ctx)
	u := *v.server
	u.Path, u.RawPath, u.RawQuery = req.URL.Path, req.URL.RawPath, req.URL.RawQuery
	if v.opts.Path != nil {
		u.Path, u.RawPath = v.opts.Path(u.Path), ""
	}
	mapped.URL, mapped.Host, mapped.RequestURI = &u, u.Host, ""
	mapped.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := v.router.FindRoute(mapped)
	if err != nil {
		v.violation("%s: no such operation in the spec: %v", where, err)
		return
	}
	v.mu.Lock()
	v.seen[req.Method+" "+route.Path]++
	v.mu.Unlock()
	stream := resp != nil && v.events != nil && strings.HasPrefix(resp.header.Get("Content-Type"), "text/event-stream")
	opts := &openapi3filter.Options{AuthenticationFunc: v.authenticate, SkipSettingDefaults: true, MultiError: true,
		ExcludeResponseBody: stream} // a stream is checked event by event below
	in := &openapi3filter.RequestValidationInput{Request: mapped, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		v.violation("%s: request: %v", where, err)
	}
	if resp == nil {
		return
	}
	if route.Operation.Responses.Status(resp.status) == nil && route.Operation.Responses.Default() == nil {
		if v.opts.Undeclared == nil {
			v.violation("%s: response status %d is not declared for this operation", where, resp.status)
		} else if err := v.opts.Undeclared(resp.status, resp.header, resp.body); err != nil {
			v.violation("%s: response %d: %v", where, resp.status, err)
		}
		return
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.status,
		Header: resp.header, Body: io.NopCloser(bytes.NewReader(resp.body)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		v.violation("%s: response %d: %v", where, resp.status, err)
	}
	if stream {
		v.checkEvents(where, resp.body)
	}
}

// authenticate accepts an API key header scheme when its header is sent (its value is the
// backend's business) and rejects the rest, which the project never uses.
func (v *Validator) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme := in.SecurityScheme
	if scheme.Type != "apiKey" || scheme.In != "header" || (v.opts.KeyHeader != "" && scheme.Name != v.opts.KeyHeader) {
		return fmt.Errorf("scheme %s is not used", in.SecuritySchemeName)
	}
	if in.RequestValidationInput.Request.Header.Get(scheme.Name) == "" {
		return fmt.Errorf("header %s is missing", scheme.Name)
	}
	return nil
}
