// Package contract validates HTTP traffic against a backend's published OpenAPI spec with
// kin-openapi. Tests wrap a client's transport in a Validator; every request and response that
// does not match the spec fails the test.
package contract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// LoadSpec reads ../shared/specs/<name> next to the module root, skipping the test when the
// reference folder is not there (it is not part of this repository).
func LoadSpec(t testing.TB, name string) *openapi3.T {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("module root (go.mod) not found above the test's directory")
		}
		dir = filepath.Dir(dir)
	}
	path := filepath.Join(dir, "..", "shared", "specs", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("contract test skipped: the spec %s is not available at %s (it lives in ../shared/specs beside the repository)", name, path)
	}
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", name, err)
	}
	return doc
}

// Validator is an http.RoundTripper that checks each exchange against one spec.
type Validator struct {
	t      testing.TB
	doc    *openapi3.T
	router routers.Router
	server *url.URL // the spec's first server: requests are mapped onto it to find their route
	next   http.RoundTripper
	report func(format string, args ...any) // t.Errorf, unless a test of the validator itself swaps it

	mu  sync.Mutex
	ops map[string]int
}

// NewValidator validates traffic sent through it (to any host) against doc.
func NewValidator(t testing.TB, doc *openapi3.T) *Validator {
	t.Helper()
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("building the spec's router: %v", err)
	}
	server, err := url.Parse(doc.Servers[0].URL)
	if err != nil {
		t.Fatalf("spec server URL: %v", err)
	}
	return &Validator{t: t, doc: doc, router: router, server: server, next: http.DefaultTransport, report: t.Errorf, ops: map[string]int{}}
}

// Client returns an HTTP client whose traffic is validated.
func (v *Validator) Client() *http.Client { return &http.Client{Transport: v} }

// Seen counts the exchanges validated for an operation, e.g. "POST /v3/templates".
func (v *Validator) Seen(op string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.ops[op]
}

func (v *Validator) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := v.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	respBody, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	if err := v.validate(req, body, resp, respBody); err != nil {
		v.report("contract violation: %s %s: %v", req.Method, req.URL.Path, err)
	}
	return resp, nil
}

func (v *Validator) validate(req *http.Request, body []byte, resp *http.Response, respBody []byte) error {
	ctx := context.Background()
	mapped := req.Clone(ctx)
	u := *v.server
	u.Path, u.RawQuery = req.URL.Path, req.URL.RawQuery
	mapped.URL, mapped.Host = &u, u.Host
	mapped.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := v.router.FindRoute(mapped)
	if err != nil {
		return fmt.Errorf("no such operation in the spec: %w", err)
	}
	v.mu.Lock()
	v.ops[req.Method+" "+route.Path]++
	v.mu.Unlock()
	opts := &openapi3filter.Options{AuthenticationFunc: requireHeaderSchemes, IncludeResponseStatus: true}
	in := &openapi3filter.RequestValidationInput{Request: mapped, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode,
		Header: resp.Header, Body: io.NopCloser(bytes.NewReader(respBody)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("response %d: %w", resp.StatusCode, err)
	}
	return nil
}

// requireHeaderSchemes accepts a header-based scheme (an API key) only when its header is present;
// other schemes are alternatives this project does not use.
func requireHeaderSchemes(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecurityScheme.Type == "apiKey" && in.SecurityScheme.In == "header" &&
		in.RequestValidationInput.Request.Header.Get(in.SecurityScheme.Name) == "" {
		return fmt.Errorf("header %s is missing", in.SecurityScheme.Name)
	}
	if in.SecurityScheme.Type != "apiKey" {
		return fmt.Errorf("scheme %s is not used", in.SecurityScheme.Type)
	}
	return nil
}
