package e2b

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// An API answering the build start (whose body carries the registry password) with a 307 to
// another origin gets the build refused there: that origin sees no request, so neither the API
// key nor the body reaches it, and the error names where the answer pointed.
func TestBuildFollowsNoRedirectToAnotherOrigin(t *testing.T) {
	const password = "registry-password-for-e2b-only"
	var mu sync.Mutex
	var stolen []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		stolen = append(stolen, r.Method+" "+r.URL.Path+" "+r.Header.Get(apiKeyHeader)+" "+string(body))
		w.WriteHeader(http.StatusUnauthorized) // ends the build at once, when it was sent here
	}))
	defer elsewhere.Close()

	var starts atomic.Int32
	emu := newEmulator(t)
	b := newTestBuilder(t, emu, func(c *Config) {
		c.HTTPClient = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodPost || !strings.Contains(r.URL.Path, "/builds/") || r.URL.Host != strings.TrimPrefix(emu.URL, "http://") {
				return http.DefaultTransport.RoundTrip(r)
			}
			starts.Add(1)
			return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {elsewhere.URL + "/steal"}},
				Body: http.NoBody, Request: r}, nil
		})}
	})
	spec := builders.TemplateSpec{TemplateID: "private", Image: "registry.example.com/team/img:1", StartCmd: ptr(""),
		RegistryAuth: &builders.BasicAuth{Username: "robot", Password: builders.NewSecret(password)}}

	_, err := b.Build(t.Context(), spec, builders.Observer{})

	mu.Lock()
	defer mu.Unlock()
	if len(stolen) != 0 {
		t.Fatalf("the other origin was sent %q", stolen)
	}
	var refused *apihttp.RedirectError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "refused a redirect to "+elsewhere.URL+"/steal") {
		t.Fatalf("Build error = %v, want the redirect refused, naming its target", err)
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("the build start was sent %d times, want once: a refused redirect is not retried", n)
	}
	assertNoSecrets(t, err.Error(), password, testAPIKey)
}
