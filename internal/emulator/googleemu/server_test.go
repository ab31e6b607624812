package googleemu

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

func fetchToken(t *testing.T, keyJSON string, scopes ...string) (*oauth2.Token, error) {
	t.Helper()
	creds, err := google.CredentialsFromJSONWithType(t.Context(), []byte(keyJSON), google.ServiceAccount, scopes...)
	if err != nil {
		t.Fatalf("credentials: %v", err)
	}
	return creds.TokenSource.Token()
}

func TestIssuesTokenThroughXOAuth2(t *testing.T) {
	s := NewTestServer(t)
	keyJSON := s.ServiceAccountJSON(t)
	tok, err := fetchToken(t, keyJSON, CloudPlatformScope)
	if err != nil {
		t.Fatal(err)
	}
	issued := s.Issued()
	if len(issued) != 1 || issued[0].AccessToken != tok.AccessToken || tok.TokenType != "Bearer" || tok.Expiry.IsZero() {
		t.Fatalf("token %+v, issued %+v", tok, issued)
	}
	if issued[0].ClientEmail != KeyField(t, keyJSON, "client_email") || issued[0].Scope != CloudPlatformScope {
		t.Errorf("issued to %+v", issued[0])
	}
	if !strings.HasPrefix(KeyField(t, keyJSON, "token_uri"), "http://127.0.0.1:") {
		t.Errorf("token_uri = %s, want the local server", KeyField(t, keyJSON, "token_uri"))
	}
}

func TestRejectsBadAssertions(t *testing.T) {
	s := NewTestServer(t)
	first, second := s.ServiceAccountJSON(t), s.ServiceAccountJSON(t)
	foreign := NewTestServer(t).ServiceAccountJSON(t)
	tests := []struct {
		name    string
		keyJSON string
		scopes  []string
		want    string
	}{
		{"key of another server", KeyWithField(t, foreign, "token_uri", s.TokenURL()), []string{CloudPlatformScope}, "Invalid JWT Signature."},
		{"someone else's key id", KeyWithField(t, first, "private_key", KeyField(t, second, "private_key")), []string{CloudPlatformScope}, "Invalid JWT Signature."},
		{"signature by the wrong key", KeyWithField(t, KeyWithField(t, first, "private_key", KeyField(t, second, "private_key")), "private_key_id", ""),
			[]string{CloudPlatformScope}, "Invalid JWT Signature."},
		{"unknown scope", first, []string{"https://www.googleapis.com/auth/not-a-scope"}, "invalid_scope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fetchToken(t, tt.keyJSON, tt.scopes...)
			var retrieve *oauth2.RetrieveError
			if !errors.As(err, &retrieve) || retrieve.Response.StatusCode != http.StatusBadRequest || !strings.Contains(string(retrieve.Body), tt.want) {
				t.Fatalf("want a 400 with %q, got %v", tt.want, err)
			}
		})
	}
	if got := s.Issued(); len(got) != 0 {
		t.Errorf("nothing may be issued for bad assertions, got %+v", got)
	}
}

func TestFailWith(t *testing.T) {
	s := NewTestServer(t)
	s.FailWith(http.StatusForbidden, "access_denied", "Service account is disabled.")
	_, err := fetchToken(t, s.ServiceAccountJSON(t), CloudPlatformScope)
	var retrieve *oauth2.RetrieveError
	if !errors.As(err, &retrieve) || retrieve.Response.StatusCode != http.StatusForbidden || !strings.Contains(string(retrieve.Body), "access_denied") {
		t.Fatalf("want the scripted 403, got %v", err)
	}
}

func TestRejectsOtherGrants(t *testing.T) {
	s := NewTestServer(t)
	resp, err := http.PostForm(s.TokenURL(), url.Values{"grant_type": {"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var body map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != http.StatusBadRequest || body["error"] != "unsupported_grant_type" {
		t.Errorf("answered %d %v", resp.StatusCode, body)
	}
}
