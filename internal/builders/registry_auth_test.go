package builders

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const validKeyJSON = `{"type":"service_account","client_email":"ci@p.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n"}`

func TestRegistryAuthValidation(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(keyFile, []byte(validKeyJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		auth    RegistryAuth
		wantErr string // "" means valid
	}{
		{"basic", &BasicAuth{Username: "u", Password: NewSecret("p")}, ""},
		{"basic without username", &BasicAuth{Password: NewSecret("p")}, "registry_auth.basic.username: must not be empty"},
		{"basic without password", &BasicAuth{Username: "u"}, "registry_auth.basic.password: must not be empty"},
		{"aws", &AWSAuth{AccessKeyID: "AKID", SecretAccessKey: NewSecret("s"), Region: "us-east-1"}, ""},
		{"aws without region", &AWSAuth{AccessKeyID: "AKID", SecretAccessKey: NewSecret("s")}, "registry_auth.aws.region: is required"},
		{"aws without key id", &AWSAuth{SecretAccessKey: NewSecret("s"), Region: "r"}, "registry_auth.aws.access_key_id: must not be empty"},
		{"aws without secret", &AWSAuth{AccessKeyID: "AKID", Region: "r"}, "registry_auth.aws.secret_access_key: must not be empty"},
		{"gcp content", &GCPAuth{ServiceAccountJSON: NewSecret(validKeyJSON)}, ""},
		{"gcp path", &GCPAuth{ServiceAccountJSON: NewSecret(keyFile)}, ""},
		{"gcp empty", &GCPAuth{}, "registry_auth.gcp.service_account_json: must not be empty"},
		{"gcp malformed", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type": "service_account",`)}, "not valid JSON"},
		{"gcp wrong type", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type":"authorized_user"}`)}, `"type" must be "service_account"`},
		{"gcp missing fields", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type":"service_account"}`)}, "missing client_email, private_key"},
		{"none: a public image", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateRegistryAuth(tt.auth).Err()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestGCPResolved(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key.json")
	if err := os.WriteFile(keyFile, []byte(validKeyJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	badFile := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badFile, []byte(`{"type":"service_account","private_key":"k"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, input := range []string{validKeyJSON, "  \n" + validKeyJSON, keyFile} {
		got, err := (&GCPAuth{ServiceAccountJSON: NewSecret(input)}).Resolved()
		if err != nil || strings.TrimSpace(got.Reveal()) != validKeyJSON {
			t.Errorf("Resolved(%.20q) = %v; want the key content", input, err)
		}
	}
	if _, err := (&GCPAuth{ServiceAccountJSON: NewSecret(filepath.Join(dir, "missing.json"))}).Resolved(); err == nil ||
		!strings.Contains(err.Error(), "reading key file") {
		t.Errorf("a missing key file must fail clearly, got %v", err)
	}
	if _, err := (&GCPAuth{ServiceAccountJSON: NewSecret(badFile)}).Resolved(); err == nil || !strings.Contains(err.Error(), "missing client_email") {
		t.Errorf("a key file without client_email must fail validation, got %v", err)
	}
}

// TestGCPKeyFileMustBeARegularSmallFile: a FIFO would block the build past its timeout (nothing
// ever writes it), and a huge file would be read whole into memory.
func TestGCPKeyFileMustBeARegularSmallFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "key.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(strings.Repeat(" ", maxKeyFileBytes+1)+validKeyJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "not a regular file", dir: "not a regular file", big: "a service-account key is a few KB"} {
		done := make(chan error, 1)
		go func() { _, err := (&GCPAuth{ServiceAccountJSON: NewSecret(path)}).Resolved(); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Resolved(%s) = %v, want an error saying %q", filepath.Base(path), err, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("Resolved(%s) blocked", filepath.Base(path))
		}
	}
}

func TestGCPErrorsNeverQuoteTheKey(t *testing.T) {
	leaky := `{"type":"service_account","client_email":"x","private_key":"PRIVATE-KEY-MATERIAL"` // truncated: a syntax error
	err := ValidateRegistryAuth(&GCPAuth{ServiceAccountJSON: NewSecret(leaky)}).Err()
	if err == nil || strings.Contains(err.Error(), "PRIVATE-KEY-MATERIAL") {
		t.Errorf("error must exist and not quote the key: %v", err)
	}
}
