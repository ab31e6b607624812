package opensandbox

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// TestCreateAnsweredWithoutAnIDFails: a 2xx to a create without the id of what it created fails
// the build there (the builder sandbox at TEMPLATE_CREATE, the snapshot at SNAPSHOT), saying so;
// the provider never polls or deletes the list path ("/sandboxes/", "/snapshots/") that an empty
// id would make of the object's, and does not adopt on the same server's word.
func TestCreateAnsweredWithoutAnIDFails(t *testing.T) {
	for name, tt := range map[string]struct {
		create func(r *http.Request) bool
		answer string
		stage  builders.Stage
		want   string
	}{
		"sandbox": {func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/sandboxes") },
			`{"status":{"state":"Running"}}`, builders.StageTemplateCreate, `without a usable sandbox id ("")`},
		"snapshot": {func(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/snapshots") },
			`{"id":"..","name":"py"}`, builders.StageSnapshot, `without a usable snapshot id ("..")`},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, opensandboxemu.Options{})
			target, _ := url.Parse(h.emu.LifecycleURL())
			proxy := httputil.NewSingleHostReverseProxy(target)
			var mu sync.Mutex
			var paths []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.Method+" "+r.URL.Path)
				mu.Unlock()
				if r.Method == http.MethodPost && tt.create(r) {
					proxy.ServeHTTP(httptest.NewRecorder(), r) // created on the server, answered without its id
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusAccepted)
					_, _ = w.Write([]byte(tt.answer))
					return
				}
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			h.b.api.BaseURL, _ = url.Parse(srv.URL)
			result := builders.Ensure(t.Context(), h.b, builders.TemplateSpec{TemplateID: "py", Image: opensandboxCI, StartCmd: new("")}, builders.Observer{})
			if result.Status != builders.StatusFailed || result.Stage != tt.stage || !strings.Contains(result.Detail, tt.want) {
				t.Fatalf("Ensure = %s at %s: %s; want FAILED at %s saying %q", result.Status, result.Stage, result.Detail, tt.stage, tt.want)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, p := range paths {
				_, path, _ := strings.Cut(p, " ")
				if strings.HasSuffix(path, "/") || !strings.HasPrefix(path, "/sandboxes") && !strings.HasPrefix(path, "/snapshots") {
					t.Errorf("requested %s: a list or parent path, not an object", p)
				}
			}
		})
	}
}
