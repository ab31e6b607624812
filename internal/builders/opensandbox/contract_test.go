package opensandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestContractFullFlow runs a full builder flow (lookup, build with packages replacing an older
// snapshot, delete) and validates every request and response on the wire against the OpenSandbox
// lifecycle and execd specs.
func TestContractFullFlow(t *testing.T) {
	lifecycle, execdSpec := loadSpec(t, "opensandbox-lifecycle.yml"), loadSpec(t, "opensandbox-execd.yml")
	v := &specValidator{t: t, lifecycle: lifecycle, execd: execdSpec, next: http.DefaultTransport}
	h := newHarness(t, opensandboxemu.Options{PendingPolls: 2, CreatingPolls: 2, CommandResult: func(string) opensandboxemu.CommandResult {
		return opensandboxemu.CommandResult{Stdout: []string{"Successfully installed six-1.16.0"}}
	}}, func(c *Config) { c.HTTPClient = &http.Client{Transport: v} })
	h.emu.AddSnapshot("contract", opensandboxemu.SnapshotFailed)

	ctx := context.Background()
	auth, _ := builders.NewBasicAuth("robot", builders.NewSecret("registry-password"))
	s := spec("contract")
	s.RegistryAuth, s.Packages, s.StartCmd = auth, []string{"six==1.16.0"}, "tail -f /dev/null"
	if got := builders.Ensure(ctx, h.b, s); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if _, err := h.b.ResolveSnapshotID(ctx, "contract"); err != nil {
		t.Fatal(err)
	}
	if err := h.b.Delete(ctx, "contract"); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"POST /sandboxes", "GET /sandboxes/{sandboxId}", "GET /sandboxes/{sandboxId}/endpoints/{port}",
		"GET /ping", "POST /command", "POST /sandboxes/{sandboxId}/snapshots", "GET /snapshots/{snapshotId}", "GET /snapshots",
		"DELETE /snapshots/{snapshotId}", "DELETE /sandboxes/{sandboxId}"} {
		if !v.seen(op) {
			t.Errorf("the flow never exercised %s", op)
		}
	}
}

// loadSpec reads a spec from ../shared/specs relative to the module root.
func loadSpec(t *testing.T, name string) *openapi3.T {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("module root not found")
		}
	}
	path := filepath.Join(dir, "..", "shared", "specs", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("OpenSandbox spec %s is not available (%v); the contract test needs the specs in ../shared/specs next to the module", name, err)
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

// specValidator is a RoundTripper that validates each exchange against the spec it belongs to.
type specValidator struct {
	t               *testing.T
	lifecycle       *openapi3.T
	execd           *openapi3.T
	next            http.RoundTripper
	once            sync.Once
	lcRouter, exRtr routers.Router

	mu   sync.Mutex
	ops  map[string]bool
	errs []string
}

func (v *specValidator) RoundTrip(req *http.Request) (*http.Response, error) {
	v.once.Do(func() {
		var err error
		if v.lcRouter, err = gorillamux.NewRouter(v.lifecycle); err == nil {
			v.exRtr, err = gorillamux.NewRouter(v.execd)
		}
		if err != nil {
			v.t.Errorf("building routers: %v", err)
		}
	})
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
	v.validate(req, body, resp, respBody)
	return resp, nil
}

// validate maps the emulator URL onto the spec's server (lifecycle under /v1; execd, which the
// emulator serves under /execd/{sandboxId}, at its root) and checks request and response.
func (v *specValidator) validate(req *http.Request, body []byte, resp *http.Response, respBody []byte) {
	ctx := context.Background()
	doc, router, specURL := v.lifecycle, v.lcRouter, "http://localhost:8080"+req.URL.Path
	if strings.HasPrefix(req.URL.Path, "/execd/") {
		parts := strings.SplitN(strings.TrimPrefix(req.URL.Path, "/execd/"), "/", 2)
		doc, router, specURL = v.execd, v.exRtr, "http://localhost:44772/"+parts[len(parts)-1]
	}
	u, _ := url.Parse(specURL)
	u.RawQuery = req.URL.RawQuery
	mapped := req.Clone(ctx)
	mapped.URL, mapped.Host = u, u.Host
	mapped.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := router.FindRoute(mapped)
	if err != nil {
		v.fail("%s %s: no such operation in the spec: %v", req.Method, req.URL.Path, err)
		return
	}
	v.mark(req.Method + " " + route.Path)
	opts := &openapi3filter.Options{
		AuthenticationFunc: requireHeaders,
		// The execd command answer is a stream of events, not one document: checked per event below.
		ExcludeResponseBody: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream"),
		// No 3.1 workaround is needed: kin-openapi v0.153 validates the 3.1 constructs these specs
		// use (timeout's oneOf [integer >= 60, {type: "null"}], type arrays) as written.
		MultiError: true,
	}
	in := &openapi3filter.RequestValidationInput{Request: mapped, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		v.fail("%s %s request: %v", req.Method, route.Path, err)
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header, Options: opts}
	out.SetBodyBytes(respBody)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		v.fail("%s %s response %d: %v", req.Method, route.Path, resp.StatusCode, err)
	}
	if opts.ExcludeResponseBody {
		v.validateEvents(doc, route.Path, respBody)
	}
}

// validateEvents checks each event of an execd stream against ServerStreamEvent.
func (v *specValidator) validateEvents(doc *openapi3.T, path string, stream []byte) {
	schema := doc.Components.Schemas["ServerStreamEvent"].Value
	scanner := bufio.NewScanner(bytes.NewReader(stream))
	for scanner.Scan() {
		line := bytes.TrimSpace(scanner.Bytes())
		if len(line) == 0 {
			continue
		}
		var event any
		if err := json.Unmarshal(line, &event); err != nil {
			v.fail("%s: stream line %q is not JSON: %v", path, line, err)
			continue
		}
		if err := schema.VisitJSON(event); err != nil {
			v.fail("%s: event %s: %v", path, line, err)
		}
	}
}

// requireHeaders checks that the security scheme's header is sent (values are the emulator's job).
func requireHeaders(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	if in.SecurityScheme.In == "header" && in.RequestValidationInput.Request.Header.Get(in.SecurityScheme.Name) == "" {
		return fmt.Errorf("header %s is missing", in.SecurityScheme.Name)
	}
	return nil
}

func (v *specValidator) fail(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.t.Errorf(format, args...)
}

func (v *specValidator) mark(op string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ops == nil {
		v.ops = map[string]bool{}
	}
	v.ops[op] = true
}

func (v *specValidator) seen(op string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.ops[op]
}
