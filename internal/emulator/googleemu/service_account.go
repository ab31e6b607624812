package googleemu

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"testing"
)

// ServiceAccountJSON returns the JSON key file of a new service account whose freshly generated RSA
// key the server trusts; its token_uri points at this server.
func (s *Server) ServiceAccountJSON(t testing.TB) string {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatalf("googleemu: generating RSA key: %v", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatalf("googleemu: encoding RSA key: %v", err)
	}
	s.mu.Lock()
	s.counter++
	n := s.counter
	email := fmt.Sprintf("googleemu-%d@googleemu-project.iam.gserviceaccount.com", n)
	keyID := fmt.Sprintf("googleemu-key-%d", n)
	s.accounts[email] = serviceAccount{privateKeyID: keyID, publicKey: &key.PublicKey}
	s.mu.Unlock()

	content, err := json.MarshalIndent(map[string]string{
		"type":           "service_account",
		"project_id":     "googleemu-project",
		"private_key_id": keyID,
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   email,
		"client_id":      fmt.Sprintf("1000000000000000%05d", n),
		"auth_uri":       s.URL + "/auth",
		"token_uri":      s.TokenURL(),
	}, "", "  ")
	if err != nil {
		t.Fatalf("googleemu: encoding key file: %v", err)
	}
	return string(content)
}
