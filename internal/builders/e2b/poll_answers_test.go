package e2b

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestBuildStatusThatIsNoStatusFails: a status poll answered 200 with something that is not a
// build status (not JSON, no status, a status E2B does not have, another build's) fails the
// build this apply made, at TEMPLATE_BUILD, saying what came back; it never ends SKIPPED on what
// the same server says next, though the build does finish there.
func TestBuildStatusThatIsNoStatusFails(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"not JSON":        {`<<garbage>>`, "decoding the answer"},
		"no status":       {`{}`, `answered the status of build`},
		"unknown status":  {`{"status":"exploded"}`, `"exploded", not one of waiting, building, ready, error`},
		"another build's": {`{"buildID":"0b8c9a4e-1111-4222-8333-944455556666","status":"ready"}`, "about build 0b8c9a4e-1111-4222-8333-944455556666"},
	} {
		t.Run(name, func(t *testing.T) {
			emu := newEmulator(t)
			target, _ := url.Parse(emu.URL)
			proxy := httputil.NewSingleHostReverseProxy(target)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/status") {
					proxy.ServeHTTP(httptest.NewRecorder(), r) // the emulator sees the poll, and its build goes on
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(tt.body))
					return
				}
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			b := newTestBuilder(t, emu, func(c *Config) { c.APIURL = srv.URL })
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a safety net: the build must not wait
			defer cancel()
			result := builders.Ensure(ctx, b, builders.TemplateSpec{TemplateID: "py", Image: "python:3.12"}, builders.Observer{})
			if result.Status != builders.StatusFailed || result.Stage != builders.StageTemplateBuild || !strings.Contains(result.Detail, tt.want) {
				t.Fatalf("Ensure = %s at %s: %s; want FAILED at TEMPLATE_BUILD saying %q", result.Status, result.Stage, result.Detail, tt.want)
			}
		})
	}
}
