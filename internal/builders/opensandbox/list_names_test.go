package opensandbox

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestListTemplatesLeavesOutNamesNoTemplateIDHolds: a snapshot name from GET /snapshots that is no
// valid template_id (the parent folder, a path, upper case, spaces, 200 characters) is left out of
// the list, so it never reaches a request, an identity or generated configuration.
func TestListTemplatesLeavesOutNamesNoTemplateIDHolds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[{"id":"s1","name":"py"},{"id":"s2","name":".."},{"id":"s3","name":"../etc"},` +
			`{"id":"s4","name":"UPPER"},{"id":"s5","name":"a b"},{"id":"s6","name":"` + strings.Repeat("a", 200) + `"},` +
			`{"id":"s7","name":"node"},{"id":"s8","name":""}],"pagination":{"hasNextPage":false}}`))
	}))
	t.Cleanup(srv.Close)
	b, err := New(Config{BaseURL: srv.URL, APIKey: builders.NewSecret(testAPIKey)})
	if err != nil {
		t.Fatal(err)
	}
	names, err := b.ListTemplates(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"node", "py"}; !slices.Equal(names, want) {
		t.Errorf("ListTemplates = %q, want %q", names, want)
	}
}
