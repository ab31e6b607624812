package googleemu

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"testing"
)

// NewServiceAccountKey returns the JSON key file of a new service account whose freshly generated
// RSA key the server trusts; its token_uri points at this server, which must be served already.
func (s *Server) NewServiceAccountKey() ([]byte, error) {
	if s.URL == "" {
		return nil, errors.New("googleemu: serve the server before making keys: their token_uri is its URL")
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("googleemu: generating RSA key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("googleemu: encoding RSA key: %w", err)
	}
	s.mu.Lock()
	s.counter++
	n := s.counter
	email := fmt.Sprintf("googleemu-%d@googleemu-project.iam.gserviceaccount.com", n)
	keyID := fmt.Sprintf("googleemu-key-%d", n)
	s.accounts[email] = serviceAccount{privateKeyID: keyID, publicKey: &key.PublicKey}
	s.mu.Unlock()

	return json.MarshalIndent(map[string]string{
		"type":           "service_account",
		"project_id":     "googleemu-project",
		"private_key_id": keyID,
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   email,
		"client_id":      fmt.Sprintf("1000000000000000%05d", n),
		"auth_uri":       s.URL + "/auth",
		"token_uri":      s.TokenURL(),
	}, "", "  ")
}

// WriteServiceAccountKey writes a new key file (NewServiceAccountKey) to path, readable by its owner
// only, as for GOOGLE_APPLICATION_CREDENTIALS.
func (s *Server) WriteServiceAccountKey(path string) error {
	key, err := s.NewServiceAccountKey()
	if err != nil {
		return err
	}
	return os.WriteFile(path, key, 0o600)
}

// ServiceAccountJSON is NewServiceAccountKey for tests.
func (s *Server) ServiceAccountJSON(t testing.TB) string {
	t.Helper()
	key, err := s.NewServiceAccountKey()
	if err != nil {
		t.Fatal(err)
	}
	return string(key)
}

// KeyField returns one field of a key file, "" when it is missing.
func KeyField(t testing.TB, keyJSON, name string) string {
	t.Helper()
	var key map[string]string
	if err := json.Unmarshal([]byte(keyJSON), &key); err != nil {
		t.Fatalf("googleemu: not a key file: %v", err)
	}
	return key[name]
}

// KeyWithField returns the key file with one field replaced, to make a key the server must refuse.
func KeyWithField(t testing.TB, keyJSON, name, value string) string {
	t.Helper()
	var key map[string]string
	if err := json.Unmarshal([]byte(keyJSON), &key); err != nil {
		t.Fatalf("googleemu: not a key file: %v", err)
	}
	key[name] = value
	out, err := json.Marshal(key)
	if err != nil {
		t.Fatalf("googleemu: encoding key file: %v", err)
	}
	return string(out)
}
