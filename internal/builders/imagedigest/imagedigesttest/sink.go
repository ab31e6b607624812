package imagedigesttest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Sink serves registries and token services under made-up host names (an ECR host, Google's,
// anyone's), all from one TLS server on 127.0.0.1, and records every request with the credential
// it carried, so a test can prove where each credential went. Transport reaches it: it dials
// every host name to the sink and trusts the certificates the sink makes for each.
type Sink struct {
	Transport *http.Transport

	ca    *x509.Certificate
	caKey *ecdsa.PrivateKey

	mu         sync.Mutex
	certs      map[string]*tls.Certificate
	registries map[string]*sinkRegistry
	services   map[string]*sinkRegistry // token service host -> the registry it issues tokens for
	seen       []Sighting
}

// Sighting is one request the sink received and the credential it carried.
type Sighting struct {
	Host, Method, Path string
	// Username and Password are those of a Basic Authorization header; Bearer is a bearer token.
	Username, Password, Bearer string
}

type sinkRegistry struct {
	inner   http.Handler
	accepts func(username, password string) bool
	realm   string // token service host; "" for a Basic challenge
	tokens  map[string]bool
}

// NewSink starts a sink for the test.
func NewSink(t testing.TB) *Sink {
	t.Helper()
	s := &Sink{certs: map[string]*tls.Certificate{}, registries: map[string]*sinkRegistry{}, services: map[string]*sinkRegistry{}}
	s.ca, s.caKey = newCA(t)
	srv := httptest.NewUnstartedServer(s)
	srv.TLS = &tls.Config{GetCertificate: s.certificate, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	roots := x509.NewCertPool()
	roots.AddCert(s.ca)
	addr := srv.Listener.Addr().String()
	s.Transport = &http.Transport{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
		TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
	}
	return s
}

// Registry serves an OCI registry at host that accepts username/password (anyone, with no
// username). With realm "" it challenges with Basic, as ECR does; otherwise with Bearer, naming
// the token service at https://<realm>/token, which the sink then serves and which issues tokens
// for this registry.
func (s *Sink) Registry(host, username, password, realm string) {
	s.RegistryFunc(host, realm, func(u, p string) bool { return username == "" || u == username && p == password })
}

// RegistryFunc is Registry with the logins it accepts decided by accepts (a token minted during
// the test, say).
func (s *Sink) RegistryFunc(host, realm string, accepts func(username, password string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	reg := &sinkRegistry{inner: registry.New(registry.Logger(log.New(io.Discard, "", 0))), accepts: accepts, realm: realm, tokens: map[string]bool{}}
	s.registries[host] = reg
	if realm != "" {
		s.services[realm] = reg
	}
}

// Push writes a new random image as repo:tag in the registry at host (a tag that exists moves
// to it), past its authentication and unseen, and returns the image's digest.
func (s *Sink) Push(t testing.TB, host, repoTag string) string {
	t.Helper()
	s.mu.Lock()
	reg := s.registries[host]
	s.mu.Unlock()
	img, err := random.Image(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.ParseReference(host + "/" + repoTag)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(ref, img, remote.WithTransport(handlerTransport{reg.inner})); err != nil {
		t.Fatal(err)
	}
	digest, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return digest.String()
}

// Seen is every request so far.
func (s *Sink) Seen() []Sighting {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// HostsThatSaw lists the hosts that received secret, as a Basic password or a bearer token.
func (s *Sink) HostsThatSaw(secret string) []string {
	var hosts []string
	for _, seen := range s.Seen() {
		if (seen.Password == secret || seen.Bearer == secret) && !slices.Contains(hosts, seen.Host) {
			hosts = append(hosts, seen.Host)
		}
	}
	slices.Sort(hosts)
	return hosts
}

func (s *Sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.TLS.ServerName
	seen := Sighting{Host: host, Method: r.Method, Path: r.URL.Path}
	seen.Username, seen.Password, _ = r.BasicAuth()
	seen.Bearer, _ = strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	s.seen = append(s.seen, seen)
	reg, service := s.registries[host], s.services[host]
	s.mu.Unlock()
	switch {
	case service != nil && r.URL.Path == "/token": // a registry may be its own token service
		s.issueToken(w, service, seen)
	case reg != nil:
		s.serveRegistry(w, r, reg, host, seen)
	default:
		http.Error(w, "nothing is served at "+host+r.URL.Path, http.StatusNotFound)
	}
}

func (s *Sink) serveRegistry(w http.ResponseWriter, r *http.Request, reg *sinkRegistry, host string, seen Sighting) {
	s.mu.Lock()
	ok := reg.tokens[seen.Bearer] || reg.accepts("", "") || (reg.realm == "" && reg.accepts(seen.Username, seen.Password))
	s.mu.Unlock()
	if !ok {
		if reg.realm == "" {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Basic realm=%q`, host))
		} else {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="https://%s/token",service=%q`, reg.realm, host))
		}
		http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`, http.StatusUnauthorized)
		return
	}
	reg.inner.ServeHTTP(w, r)
}

func (s *Sink) issueToken(w http.ResponseWriter, reg *sinkRegistry, seen Sighting) {
	if !reg.accepts(seen.Username, seen.Password) {
		http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"bad credentials"}]}`, http.StatusUnauthorized)
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	token := "sink-token-" + hex.EncodeToString(b)
	s.mu.Lock()
	reg.tokens[token] = true
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"token":%q}`, token)
}

// certificate makes (once per name) a certificate for the name the client asked for.
func (s *Sink) certificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.certs[hello.ServerName]; ok {
		return c, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: hello.ServerName},
		DNSNames: []string{hello.ServerName}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, s.ca, &key.PublicKey, s.caKey)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	s.certs[hello.ServerName] = c
	return c, nil
}

func newCA(t testing.TB) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "imagedigesttest sink CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return ca, key
}

// handlerTransport serves requests with a handler, in process.
type handlerTransport struct{ h http.Handler }

func (h handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body == nil {
		r.Body = http.NoBody // a client request may have none; a handler expects one
	}
	rec := httptest.NewRecorder()
	h.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r // the client reads an upload's next location relative to it
	return resp, nil
}
