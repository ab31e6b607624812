package googleemu

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInjectFault(t *testing.T) {
	s := NewTestServer(t)
	keyJSON := s.ServiceAccountJSON(t)
	if err := s.InjectFault(Fault{Count: 2, Status: 503}); err != nil {
		t.Fatal(err)
	}
	if err := s.InjectFault(Fault{Count: 1, Status: 400, Error: "invalid_grant", Description: "account disabled", EchoBody: true}); err != nil {
		t.Fatal(err)
	}
	signed := assertion(t, keyJSON, GoogleTokenURL)
	for range 2 {
		if status, body := exchange(t, s, signed); status != 503 || body["error"] != "temporarily_unavailable" {
			t.Errorf("armed 503: %d %v", status, body)
		}
	}
	status, body := exchange(t, s, signed)
	description, _ := body["error_description"].(string)
	if status != 400 || body["error"] != "invalid_grant" || !strings.HasPrefix(description, "account disabled; request body: ") ||
		!strings.Contains(description, signed) {
		t.Errorf("armed 400 with echo: %d %v", status, body)
	}
	if status, body := exchange(t, s, signed); status != 200 {
		t.Errorf("faults used up, yet %d %v", status, body)
	}
	for _, f := range []Fault{{Count: 0, Status: 503}, {Count: 1, Status: 302}} {
		if err := s.InjectFault(f); err == nil {
			t.Errorf("InjectFault(%+v) accepted", f)
		}
	}
}

func TestControlPaths(t *testing.T) {
	s := NewTestServer(t)
	post := func(path, body string) *http.Response {
		resp, err := http.Post(s.URL+ControlPrefix+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = resp.Body.Close() })
		return resp
	}
	resp := post("service-accounts", "")
	keyJSON, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated || KeyField(t, string(keyJSON), "token_uri") != s.TokenURL() {
		t.Fatalf("service-accounts answered %d %s", resp.StatusCode, keyJSON)
	}
	if resp := post("faults", `{"count":1,"status":429}`); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("faults answered %d", resp.StatusCode)
	}
	if resp := post("faults", `{"count":1,"status":200}`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a fault that is no error answered %d", resp.StatusCode)
	}
	signed := assertion(t, string(keyJSON), GoogleTokenURL)
	if status, _ := exchange(t, s, signed); status != http.StatusTooManyRequests {
		t.Errorf("armed 429: %d", status)
	}
	_, body := exchange(t, s, signed)
	issuedResp, err := http.Get(s.URL + ControlPrefix + "issued")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = issuedResp.Body.Close() }()
	var issued []IssuedToken
	if err := json.NewDecoder(issuedResp.Body).Decode(&issued); err != nil {
		t.Fatal(err)
	}
	if len(issued) != 1 || issued[0].AccessToken != body["access_token"] || issued[0].ClientEmail != KeyField(t, string(keyJSON), "client_email") {
		t.Errorf("issued %+v, answered %v", issued, body)
	}
}

func TestStandaloneServing(t *testing.T) {
	s := New()
	if _, err := s.NewServiceAccountKey(); err == nil {
		t.Error("a key made before the server is served would name no token_uri")
	}
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.json")
	if err := s.WriteServiceAccountKey(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v, %v: want mode 0600", info, err)
	}
	content, _ := os.ReadFile(path)
	tok, err := fetchToken(t, string(content), CloudPlatformScope)
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("token from the written key: %v, %v", tok, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}
