package imagedigest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

const loopDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// loopingRegistry is a registry on 127.0.0.1 whose answers to the paths loop matches redirect
// (302) to themselves; a manifest at /v2/team/app/manifests/moved is served, and the tag main
// redirects there once. It counts the requests it gets.
func loopingRegistry(t *testing.T, loop func(path string) bool) (host string, requests *atomic.Int64) {
	requests = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		switch {
		case loop(r.URL.Path):
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
		case r.URL.Path == "/v2/team/app/manifests/main":
			http.Redirect(w, r, "/v2/team/app/manifests/moved", http.StatusTemporaryRedirect)
		case r.URL.Path == "/v2/team/app/manifests/moved":
			w.Header().Set("Content-Type", "application/vnd.oci.image.manifest.v1+json")
			w.Header().Set("Docker-Content-Digest", loopDigest)
			w.Header().Set("Content-Length", "2")
		}
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://"), requests
}

// A registry whose manifest answers 302 to itself ends the digest check after a bounded number of
// requests, with an error saying so, not at the plan's timeout (it took a million requests); a
// loop at /v2/ ends as soon; a redirect that leads somewhere is still followed.
func TestRedirectLoopsEndTheCheck(t *testing.T) {
	resolver := Resolver{Login: passThrough}
	host, requests := loopingRegistry(t, func(p string) bool { return p == "/v2/team/app/manifests/main" })
	_, err := resolver.Resolve(t.Context(), host+"/team/app:main", nil)
	want := fmt.Sprintf("stopped after %d redirects (the last to http://%s/v2/team/app/manifests/main): the registry's answers redirect in a loop", maxRedirects, host)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a manifest looping to itself: Resolve error = %v, want %q", err, want)
	}
	if n := requests.Load(); n != 2+maxRedirects { // the /v2/ ping, the HEAD, then the redirects followed
		t.Errorf("a manifest looping to itself got %d requests, want %d", n, 2+maxRedirects)
	}

	host, requests = loopingRegistry(t, func(p string) bool { return p == "/v2/" })
	if _, err := resolver.Resolve(t.Context(), host+"/team/app:main", nil); err == nil {
		t.Error("a /v2/ looping to itself: Resolve succeeded")
	}
	if n := requests.Load(); n > maxRedirects {
		t.Errorf("a /v2/ looping to itself got %d requests, want at most %d", n, maxRedirects)
	}

	host, requests = loopingRegistry(t, func(string) bool { return false })
	if got, err := resolver.Resolve(t.Context(), host+"/team/app:main", nil); err != nil || got != loopDigest {
		t.Errorf("a tag redirected to its manifest: Resolve = %q, %v; want %s", got, err, loopDigest)
	}
	if n := requests.Load(); n != 3 {
		t.Errorf("a tag redirected to its manifest took %d requests, want 3", n)
	}
}
