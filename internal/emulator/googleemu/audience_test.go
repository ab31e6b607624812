package googleemu

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// assertion signs a JWT-bearer assertion for the key with the given audience, as
// google-auth-library does (aud: Google's token URL) or golang.org/x/oauth2 does (aud: token_uri).
func assertion(t *testing.T, keyJSON, audience string) string {
	t.Helper()
	block, _ := pem.Decode([]byte(KeyField(t, keyJSON, "private_key")))
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	token := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{
		"iss": KeyField(t, keyJSON, "client_email"), "scope": CloudPlatformScope, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	signed, err := token.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return signed
}

func exchange(t *testing.T, s *Server, signed string) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(s.TokenURL(), url.Values{"grant_type": {jwtBearerGrant}, "assertion": {signed}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

func TestAudiences(t *testing.T) {
	s := NewTestServer(t)
	keyJSON := s.ServiceAccountJSON(t)
	tests := []struct {
		name, audience string
		wantStatus     int
	}{
		{"Google's canonical token URL, as google-auth-library signs it", GoogleTokenURL, http.StatusOK},
		{"the key's token_uri, as golang.org/x/oauth2 signs it", s.TokenURL(), http.StatusOK},
		{"any other audience", "https://example.com/token", http.StatusBadRequest},
		{"Google's token info URL", "https://oauth2.googleapis.com/tokeninfo", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := exchange(t, s, assertion(t, keyJSON, tt.audience))
			if status != tt.wantStatus {
				t.Fatalf("answered %d %v, want %d", status, body, tt.wantStatus)
			}
			if status != http.StatusOK && body["error"] != "invalid_grant" {
				t.Errorf("refusal %v, want invalid_grant", body)
			}
		})
	}
	if got := len(s.Issued()); got != 2 {
		t.Errorf("issued %d tokens, want 2", got)
	}
}
