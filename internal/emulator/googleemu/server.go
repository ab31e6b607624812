package googleemu

import (
	"crypto/rsa"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// Scopes that read images from Artifact Registry and Container Registry, the ones the token
// endpoint grants; like Google's, it refuses a scope it does not know (invalid_scope).
const (
	CloudPlatformScope         = "https://www.googleapis.com/auth/cloud-platform"
	CloudPlatformReadOnlyScope = "https://www.googleapis.com/auth/cloud-platform.read-only"
	StorageReadOnlyScope       = "https://www.googleapis.com/auth/devstorage.read_only"
)

// tokenPath is where the token endpoint is served; key files put it in token_uri.
const tokenPath = "/token"

// Server is the fake token endpoint. It is safe for concurrent use.
type Server struct {
	// URL is the server's base URL once served; the token endpoint is TokenURL().
	URL string

	server  *serve.Server
	control http.Handler

	mu       sync.Mutex
	accounts map[string]serviceAccount // by client_email
	issued   []IssuedToken
	failure  *oauthError
	faults   []*Fault
	counter  int
}

type serviceAccount struct {
	privateKeyID string
	publicKey    *rsa.PublicKey
}

// IssuedToken is one access token the server handed out.
type IssuedToken struct {
	AccessToken string `json:"accessToken"`
	ClientEmail string `json:"clientEmail"`
	Scope       string `json:"scope"`
}

// New returns a server that is not yet listening: serve it with Start, or use it as an http.Handler
// and set URL.
func New() *Server {
	s := &Server{accounts: map[string]serviceAccount{}}
	s.control = s.controlHandler()
	return s
}

// NewTestServer serves a token endpoint on 127.0.0.1 for the duration of the test.
func NewTestServer(t testing.TB) *Server {
	t.Helper()
	s := New()
	s.URL = serve.ForTest(t, s)
	return s
}

// Start serves the token endpoint on addr (for example "127.0.0.1:0") until Close.
func (s *Server) Start(addr string) error {
	srv, err := serve.Start(addr, s)
	if err != nil {
		return err
	}
	s.server, s.URL = srv, srv.URL
	return nil
}

// Close stops a server started with Start.
func (s *Server) Close() error { return s.server.Close() }

// TokenURL is the token endpoint, as found in the token_uri of the key files the server makes.
func (s *Server) TokenURL() string { return s.URL + tokenPath }

// ServeHTTP answers the token endpoint and the control paths (ControlPrefix).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPrefix) {
		s.control.ServeHTTP(w, r)
		return
	}
	s.serveToken(w, r)
}

// Issued returns every access token issued so far, in order.
func (s *Server) Issued() []IssuedToken {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]IssuedToken(nil), s.issued...)
}

// FailWith makes every later token request fail with the HTTP status and OAuth2 error, for
// example (400, "invalid_grant", "Invalid JWT Signature.") or (403, "access_denied", "...").
func (s *Server) FailWith(status int, errorCode, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failure = &oauthError{status: status, code: errorCode, description: description}
}
