package googleemu

import (
	"crypto/rsa"
	"net/http"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// CloudPlatformScope is the scope every assertion must request.
const CloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// tokenPath is where the token endpoint is served; ServiceAccountJSON puts it in token_uri.
const tokenPath = "/token"

// Server is the fake token endpoint. It is safe for concurrent use.
type Server struct {
	// URL is the server's base URL; the token endpoint is TokenURL().
	URL string

	mu       sync.Mutex
	accounts map[string]serviceAccount // by client_email
	issued   []IssuedToken
	failure  *oauthError
	counter  int
}

type serviceAccount struct {
	privateKeyID string
	publicKey    *rsa.PublicKey
}

// IssuedToken is one access token the server handed out.
type IssuedToken struct {
	AccessToken string
	ClientEmail string
	Scope       string
}

// NewTestServer serves a token endpoint on 127.0.0.1 for the duration of the test.
func NewTestServer(t testing.TB) *Server {
	t.Helper()
	s := &Server{accounts: map[string]serviceAccount{}}
	s.URL = serve.ForTest(t, http.HandlerFunc(s.serveToken))
	return s
}

// TokenURL is the token endpoint, as found in the token_uri of keys from ServiceAccountJSON.
func (s *Server) TokenURL() string { return s.URL + tokenPath }

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
