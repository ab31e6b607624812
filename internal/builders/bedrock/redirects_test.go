package bedrock

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestRedirectLoopEndsTheLookup: a control plane answering every GET with a 307 to itself ends
// the lookup after Go's 10 redirects; the SDK alone followed it until the request's deadline
// (12,838 requests in 3 s), with or without request_timeout.
func TestRedirectLoopEndsTheLookup(t *testing.T) {
	isolateAWS(t)
	var requests atomic.Int32
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Redirect(w, r, r.URL.String(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(loop.Close)
	for _, env := range []builders.Env{{}, {RequestTimeout: 2 * time.Minute}} {
		requests.Store(0)
		env.Settings = builders.Settings{Values: map[string]string{settingRegion.Path: "us-east-1", settingEndpoint.Path: loop.URL}}
		b, err := Backend.Open(t.Context(), env)
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.IsUsable(t.Context(), "ci-0123456789")
		if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
			t.Fatalf("request_timeout %v: a redirect loop ended with %v", env.RequestTimeout, err)
		}
		// The SDK retries a failed request (3 attempts), each sending the first request and 10 redirects.
		if n := requests.Load(); n > 3*(1+maxRedirects) {
			t.Fatalf("request_timeout %v: the loop got %d requests, want at most %d", env.RequestTimeout, n, 3*(1+maxRedirects))
		}
	}
}
