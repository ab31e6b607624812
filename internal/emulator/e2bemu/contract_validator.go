package e2bemu

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/contract"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// SpecFile is E2B's published OpenAPI spec, looked up in ../shared/specs beside the module root.
const SpecFile = "e2b-openapi.yml"

// NewContractValidator checks traffic against E2B's spec, holding the emulator to it except where
// the real API departs from it (realServerStatuses). It skips the test when the spec is not available.
func NewContractValidator(t testing.TB) *contract.Validator {
	t.Helper()
	doc := contract.LoadSpec(t, SpecFile)
	errRef := doc.Components.Schemas["Error"]
	if errRef == nil || errRef.Value == nil {
		t.Fatal("the spec has no Error schema")
	}
	return contract.NewValidator(t, doc, contract.Options{KeyHeader: "X-API-Key", Undeclared: realServerStatuses(errRef.Value)})
}

// NewContractTestServer is NewTestServer with every API exchange validated against the spec (the
// control path, ControlPrefix, is not E2B's API and is not validated).
func NewContractTestServer(t testing.TB, opts Options) (*Server, *contract.Validator) {
	t.Helper()
	v := NewContractValidator(t)
	s := New(opts)
	validated := v.Wrap(s)
	s.URL = serve.ForTest(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, ControlPrefix) { // the emulator's own endpoints are not E2B's API
			s.ServeHTTP(w, r)
			return
		}
		validated.ServeHTTP(w, r)
	}))
	return s, v
}

// realServerStatuses judges a status the operation does not declare. Two kinds are tolerated, as
// long as the body is the spec's Error JSON:
//   - injected faults (marked by faultHeader): E2B's gateway answers 429/5xx on any path, but the
//     spec lists them per operation, so a retry test would otherwise always "violate" the spec;
//   - the statuses the real API answers beyond its spec (undeclaredByServer).
//
// Anything else is a violation.
func realServerStatuses(errorSchema *openapi3.Schema) func(int, http.Header, []byte) error {
	return func(status int, header http.Header, body []byte) error {
		if header.Get(faultHeader) == "" && !undeclaredByServer[status] {
			return fmt.Errorf("status %d is not declared for this operation", status)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return fmt.Errorf("body is not JSON: %w", err)
		}
		if err := errorSchema.VisitJSON(v); err != nil {
			return fmt.Errorf("body is not the spec's Error: %w", err)
		}
		return nil
	}
}

// undeclaredByServer are the statuses E2B's API server (e2b-dev/infra packages/api) answers on
// template operations whose spec does not declare them; the server wins over the spec.
var undeclaredByServer = map[int]bool{
	// ids and names are validated, and unknown ones answered 404, on every template endpoint
	// (e.g. handlers/template_delete.go, template_start_build_v2.go: "build is not in waiting state").
	http.StatusBadRequest: true,
	http.StatusNotFound:   true,
	// another team's template: handlers/auth.go resolveTemplateAndTeam (DELETE), template_tags.go.
	http.StatusForbidden: true,
	// POST /v3/templates: template/register_build.go "Alias '%s' is already used".
	http.StatusConflict: true,
	// POST /v3/templates: template/register_build.go, the team's concurrent build limit.
	http.StatusTooManyRequests: true,
}
