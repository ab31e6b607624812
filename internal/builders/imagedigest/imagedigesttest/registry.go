// Package imagedigesttest serves a real OCI registry in process for tests: go-containerregistry's
// in-memory pkg/registry on 127.0.0.1, behind basic auth, with images pushed and retagged by the test.
package imagedigesttest

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Registry is the registry's host:port and the credentials it accepts.
type Registry struct {
	Host, Username, Password string
	requests                 atomic.Int64
}

// New serves a registry that accepts only username/password, until the test ends.
func New(t testing.TB, username, password string) *Registry {
	t.Helper()
	r := &Registry{Username: username, Password: password}
	inner := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		if u, p, ok := req.BasicAuth(); !ok || u != username || p != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="imagedigesttest"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.Host = strings.TrimPrefix(srv.URL, "http://")
	return r
}

// Requests counts the requests that reached the registry, pushes included.
func (r *Registry) Requests() int64 { return r.requests.Load() }

// Push writes a new random image as repo:tag (a tag that already exists moves to it) and returns
// the image's digest.
func (r *Registry) Push(t testing.TB, repoTag string) string {
	t.Helper()
	img, err := random.Image(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.ParseReference(r.Host + "/" + repoTag)
	if err != nil {
		t.Fatal(err)
	}
	login := authn.FromConfig(authn.AuthConfig{Username: r.Username, Password: r.Password})
	if err := remote.Write(ref, img, remote.WithAuth(login)); err != nil {
		t.Fatal(err)
	}
	digest, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return digest.String()
}
