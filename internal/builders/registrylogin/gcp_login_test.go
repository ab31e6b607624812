package registrylogin

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
)

const garImage = "europe-docker.pkg.dev/project/repo/app:1"

func writeKeyFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestGCPLoginExchangesTheKey(t *testing.T) {
	tests := []struct {
		name  string
		value func(t *testing.T, keyJSON string) string
	}{
		{"key content", func(_ *testing.T, keyJSON string) string { return keyJSON }},
		{"key file path", writeKeyFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			google := googleemu.NewTestServer(t)
			keyJSON := google.ServiceAccountJSON(t)
			auth := &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(tt.value(t, keyJSON))}
			transport := &countingTransport{}
			user, pass, err := Exchanger{HTTPClient: &http.Client{Transport: transport}}.Login(t.Context(), garImage, auth)
			if err != nil {
				t.Fatal(err)
			}
			issued := google.Issued()
			if len(issued) != 1 || user != "oauth2accesstoken" || pass.Reveal() != issued[0].AccessToken {
				t.Fatalf("login %q / %q, issued %+v: want oauth2accesstoken and the issued token", user, pass.Reveal(), issued)
			}
			if issued[0].Scope != googleemu.CloudPlatformReadOnlyScope { // the narrowest that reads images
				t.Errorf("scope %q", issued[0].Scope)
			}
			if transport.requests.Load() != 1 {
				t.Errorf("the Exchanger's HTTP client carried %d requests, want 1", transport.requests.Load())
			}
		})
	}
}

func TestGCPLoginFailures(t *testing.T) {
	google := googleemu.NewTestServer(t)
	good := google.ServiceAccountJSON(t)
	foreign := googleemu.NewTestServer(t).ServiceAccountJSON(t)
	garbledPEM := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDthisisnotakey\n-----END PRIVATE KEY-----\n"
	tests := []struct {
		name      string
		value     string
		fail      func()
		wantStage builders.Stage
		want      []string
		secrets   []string
	}{
		{name: "private key is not a key", value: googleemu.KeyWithField(t, good, "private_key", garbledPEM),
			wantStage: builders.StageRegistryAuth, want: []string{"registry_auth.gcp", "private key"}, secrets: []string{garbledPEM, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDthisisnotakey"}},
		{name: "key the token endpoint does not know", value: googleemu.KeyWithField(t, foreign, "token_uri", google.TokenURL()),
			wantStage: builders.StageRegistryAuth, want: []string{"refused the service account key", "400", "invalid_grant", "Invalid JWT Signature."}, secrets: []string{googleemu.KeyField(t, foreign, "private_key")}},
		{name: "token endpoint answers 403", value: good, fail: func() { google.FailWith(http.StatusForbidden, "access_denied", "Service account is disabled.") },
			wantStage: builders.StageRegistryAuth, want: []string{"403", "access_denied: Service account is disabled."}, secrets: []string{googleemu.KeyField(t, good, "private_key")}},
		{name: "key file missing", value: filepath.Join(t.TempDir(), "missing.json"),
			wantStage: builders.StageRegistryAuth, want: []string{"reading key file"}},
		{name: "key file holds another credential type", value: writeKeyFile(t, `{"type":"authorized_user","client_id":"x","client_secret":"gcp-client-secret-value"}`),
			wantStage: builders.StageRegistryAuth, want: []string{`"type" must be "service_account"`}, secrets: []string{"gcp-client-secret-value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.fail != nil {
				tt.fail()
			}
			auth := &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(tt.value)}
			_, _, err := Exchanger{}.Login(t.Context(), garImage, auth)
			t.Logf("error: %v", err)
			buildertest.AssertStage(t, err, tt.wantStage, tt.want...)
			assertNoSecret(t, err, tt.secrets...)
			if strings.Contains(err.Error(), "BEGIN PRIVATE KEY") {
				t.Errorf("error quotes the key: %v", err)
			}
		})
	}
}
