package googleemu

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/golang-jwt/jwt/v5"
)

const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// GoogleTokenURL is Google's token endpoint. For an access token request the assertion's aud "is
// always https://oauth2.googleapis.com/token" (Google's "Using OAuth 2.0 for Server to Server
// Applications"), and google-auth-library signs that audience whatever the key's token_uri
// (gtoken/jwsSign.js). golang.org/x/oauth2 signs the token_uri instead, so the server accepts both.
const GoogleTokenURL = "https://oauth2.googleapis.com/token"

// oauthError is an RFC 6749 error response.
type oauthError struct {
	status      int
	code        string
	description string
}

func (e *oauthError) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": e.code, "error_description": e.description})
}

func invalidGrant(description string) *oauthError {
	return &oauthError{http.StatusBadRequest, "invalid_grant", description}
}

func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != tokenPath || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	token, oerr := s.issue(r)
	if oerr != nil {
		oerr.write(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3599})
}

func (s *Server) issue(r *http.Request) (string, *oauthError) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return "", &oauthError{http.StatusBadRequest, "invalid_request", "request body could not be read"}
	}
	if fault := s.takeFault(body); fault != nil {
		return "", fault
	}
	s.mu.Lock()
	failure := s.failure
	s.mu.Unlock()
	if failure != nil {
		return "", failure
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err := r.ParseForm(); err != nil {
		return "", &oauthError{http.StatusBadRequest, "invalid_request", "request body is not a form"}
	}
	if grant := r.PostForm.Get("grant_type"); grant != jwtBearerGrant {
		return "", &oauthError{http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type: " + grant}
	}
	email, scope, oerr := s.verifyAssertion(r.PostForm.Get("assertion"))
	if oerr != nil {
		return "", oerr
	}
	token := "ya29.googleemu-" + randomHex()
	s.mu.Lock()
	s.issued = append(s.issued, IssuedToken{AccessToken: token, ClientEmail: email, Scope: scope})
	s.mu.Unlock()
	return token, nil
}

// verifyAssertion checks the RS256 signature against the key of the account named by iss, then the
// audience (Google's or this server's token URL), lifetime and scope claims, answering the way
// Google's endpoint does.
func (s *Server) verifyAssertion(assertion string) (email, scope string, _ *oauthError) {
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(assertion, claims, s.publicKeyFor,
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithAudience(GoogleTokenURL, s.TokenURL()),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt())
	switch {
	case errors.Is(err, jwt.ErrTokenSignatureInvalid), errors.Is(err, errUnknownAccount):
		return "", "", invalidGrant("Invalid JWT Signature.")
	case err != nil:
		return "", "", invalidGrant("Invalid JWT: " + err.Error())
	}
	email, _ = claims.GetIssuer()
	scope, _ = claims["scope"].(string)
	if scopes := strings.Fields(scope); len(scopes) == 0 || slices.ContainsFunc(scopes, func(s string) bool {
		return s != CloudPlatformScope && s != CloudPlatformReadOnlyScope && s != StorageReadOnlyScope
	}) {
		return "", "", &oauthError{http.StatusBadRequest, "invalid_scope", "Invalid OAuth scope or ID token audience provided."}
	}
	return email, scope, nil
}

var errUnknownAccount = errors.New("no such service account key")

func (s *Server) publicKeyFor(token *jwt.Token) (any, error) {
	iss, err := token.Claims.GetIssuer()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	account, ok := s.accounts[iss]
	s.mu.Unlock()
	if kid, _ := token.Header["kid"].(string); !ok || (kid != "" && kid != account.privateKeyID) {
		return nil, errUnknownAccount
	}
	return account.publicKey, nil
}

func randomHex() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
