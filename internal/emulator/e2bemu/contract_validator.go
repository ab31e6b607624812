package e2bemu

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/contract"
)

// SpecFile is E2B's published OpenAPI spec, looked up in ../shared/specs beside the module root.
const SpecFile = "e2b-openapi.yml"

// ContractValidator checks every request and response it sees against E2B's published OpenAPI
// spec and fails the test on each violation. Use it as a client transport (Transport, Client) or
// around a handler (Wrap, NewContractTestServer).
type ContractValidator struct {
	router      routers.Router
	server      *url.URL // the spec's first server: requests are mapped onto it to find their route
	errorSchema *openapi3.Schema
	report      func(format string, args ...any) // t.Errorf, unless the validator's own test swaps it

	mu         sync.Mutex
	seen       map[string]int
	violations []string
}

// NewContractValidator loads the spec, skipping the test when it is not available.
func NewContractValidator(t testing.TB) *ContractValidator {
	t.Helper()
	doc := contract.LoadSpec(t, SpecFile)
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatalf("building the spec's router: %v", err)
	}
	server, err := url.Parse(doc.Servers[0].URL)
	if err != nil {
		t.Fatalf("spec server URL: %v", err)
	}
	errRef := doc.Components.Schemas["Error"]
	if errRef == nil || errRef.Value == nil {
		t.Fatal("the spec has no Error schema")
	}
	return &ContractValidator{router: router, server: server, errorSchema: errRef.Value, report: t.Errorf, seen: map[string]int{}}
}

// NewContractTestServer is NewTestServer with every exchange validated against the spec.
func NewContractTestServer(t testing.TB, opts Options) (*Server, *ContractValidator) {
	t.Helper()
	v := NewContractValidator(t)
	s := New(opts)
	s.URL = serveTest(t, v.Wrap(s))
	return s, v
}

// Seen counts the exchanges validated for an operation, e.g. "POST /v3/templates".
func (v *ContractValidator) Seen(op string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[op]
}

// Violations lists every violation reported so far.
func (v *ContractValidator) Violations() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.violations...)
}

func (v *ContractValidator) violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	v.mu.Lock()
	v.violations = append(v.violations, msg)
	v.mu.Unlock()
	v.report("contract violation: %s", msg)
}

// check validates one exchange; resp nil means the connection broke, and only the request is checked.
func (v *ContractValidator) check(req *http.Request, body []byte, resp *exchangeResponse) {
	ctx := context.Background()
	mapped := req.Clone(ctx)
	u := *v.server
	u.Path, u.RawPath, u.RawQuery = req.URL.Path, req.URL.RawPath, req.URL.RawQuery
	mapped.URL, mapped.Host, mapped.RequestURI = &u, u.Host, ""
	mapped.Body = io.NopCloser(bytes.NewReader(body))
	where := req.Method + " " + req.URL.Path
	route, params, err := v.router.FindRoute(mapped)
	if err != nil {
		v.violation("%s: no such operation in the spec: %v", where, err)
		return
	}
	v.mu.Lock()
	v.seen[req.Method+" "+route.Path]++
	v.mu.Unlock()
	opts := &openapi3filter.Options{AuthenticationFunc: requireAPIKeyHeader, IncludeResponseStatus: true, SkipSettingDefaults: true}
	in := &openapi3filter.RequestValidationInput{Request: mapped, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		v.violation("%s: request: %v", where, err)
	}
	if resp == nil {
		return
	}
	if route.Operation.Responses.Status(resp.status) == nil && route.Operation.Responses.Default() == nil {
		v.checkUndeclared(where, resp)
		return
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.status,
		Header: resp.header, Body: io.NopCloser(bytes.NewReader(resp.body)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		v.violation("%s: response %d: %v", where, resp.status, err)
	}
}

// checkUndeclared judges a status the operation does not declare. Two kinds are tolerated, as
// long as the body is the spec's Error JSON:
//   - injected faults (marked by faultHeader): E2B's gateway answers 429/5xx on any path, but the
//     spec lists them per operation, so a retry test would otherwise always "violate" the spec;
//   - 400 and 404: the real API validates ids and answers unknown ones with 404 on every template
//     endpoint (e.g. DELETE /templates/{templateID}), while the spec omits them on several.
//
// Anything else is a violation.
func (v *ContractValidator) checkUndeclared(where string, resp *exchangeResponse) {
	injected := resp.header.Get(faultHeader) != ""
	if !injected && resp.status != http.StatusBadRequest && resp.status != http.StatusNotFound {
		v.violation("%s: response status %d is not declared for this operation", where, resp.status)
		return
	}
	var body any
	if err := json.Unmarshal(resp.body, &body); err != nil {
		v.violation("%s: response %d: body is not JSON: %v", where, resp.status, err)
		return
	}
	if err := v.errorSchema.VisitJSON(body); err != nil {
		v.violation("%s: response %d: body is not the spec's Error: %v", where, resp.status, err)
	}
}

// requireAPIKeyHeader accepts the X-API-Key scheme when its header is present and rejects the
// other schemes (bearer tokens, admin tokens), which this project never uses.
func requireAPIKeyHeader(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme := in.SecurityScheme
	if scheme.Type != "apiKey" || scheme.In != "header" || scheme.Name != "X-API-Key" {
		return fmt.Errorf("scheme %s is not used", in.SecuritySchemeName)
	}
	if in.RequestValidationInput.Request.Header.Get(scheme.Name) == "" {
		return fmt.Errorf("header %s is missing", scheme.Name)
	}
	return nil
}

type exchangeResponse struct {
	status int
	header http.Header
	body   []byte
}
