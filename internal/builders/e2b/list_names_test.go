package e2b

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestListTemplatesLeavesOutNamesNoTemplateIDHolds: a name from GET /templates that is no valid
// template_id (the parent folder, a path, an upper-case or tagged name, 200 characters) is left out
// of the list, so it never reaches a request path, an identity or generated configuration.
func TestListTemplatesLeavesOutNamesNoTemplateIDHolds(t *testing.T) {
	long := strings.Repeat("a", 200)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"templateID":"t1","names":["team/py","team/..","..","UPPER"],"aliases":["a b","py:v1","` +
			long + `"]},{"templateID":"t2","names":["team/node"],"aliases":[".","%2e%2e"]}]`))
	}))
	t.Cleanup(srv.Close)
	b, err := New(Config{APIKey: builders.NewSecret(testAPIKey), APIURL: srv.URL})
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
