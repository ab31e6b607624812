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

const (
	ecrImage    = "123456789012.dkr.ecr.us-east-1.amazonaws.com/team/app:1"
	googleImage = "europe-docker.pkg.dev/project/repo/app:1"
)

func TestRegistryAuthValidation(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(keyFile, []byte(validKeyJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	aws := func(keyID, secret, region string) *AWSAuth {
		return &AWSAuth{AccessKeyID: keyID, SecretAccessKey: NewSecret(secret), Region: region}
	}
	tests := []struct {
		name    string
		auth    RegistryAuth
		image   string
		wantErr string // "" means valid
	}{
		{"basic", &BasicAuth{Username: "u", Password: NewSecret("p")}, "registry.example.com/app:1", ""},
		{"basic for Docker Hub", &BasicAuth{Username: "u", Password: NewSecret("p")}, "python:3.12", ""},
		{"basic without username", &BasicAuth{Password: NewSecret("p")}, "", "registry_auth.basic.username: must not be empty"},
		{"basic username with a newline", &BasicAuth{Username: "ci\nbot", Password: NewSecret("p")}, "", "registry_auth.basic.username: must not contain control characters"},
		{"basic username with a colon", &BasicAuth{Username: "ci:bot", Password: NewSecret("p")}, "", "registry_auth.basic.username: must not contain ':'"},
		{"basic without password", &BasicAuth{Username: "u"}, "", "registry_auth.basic.password: must not be empty"},
		{"basic whitespace password", &BasicAuth{Username: "u", Password: NewSecret(" \t ")}, "", "registry_auth.basic.password: must not be blank"},
		{"aws", aws("AKID", "s", "us-east-1"), ecrImage, ""},
		{"aws, no image to check yet", aws("AKID", "s", "us-gov-west-1"), "", ""},
		{"aws without region", aws("AKID", "s", ""), ecrImage, "registry_auth.aws.region: is required"},
		{"aws region that is no region", aws("AKID", "s", "Frankfurt"), "", `registry_auth.aws.region: "Frankfurt" is not an AWS region`},
		{"aws region of another ECR registry", aws("AKID", "s", "eu-west-1"), ecrImage,
			`registry_auth.aws.region: is "eu-west-1" but image is in the ECR registry 123456789012.dkr.ecr.us-east-1.amazonaws.com, in "us-east-1"`},
		{"aws for an image not on ECR", aws("AKID", "s", "us-east-1"), "ghcr.io/acme/app:1",
			"registry_auth.aws: is an Amazon ECR login, but image is on ghcr.io, which is not an ECR registry"},
		{"aws for Docker Hub", aws("AKID", "s", "us-east-1"), "python:3.12", "but image is on docker.io"},
		{"aws without key id", aws("", "s", "us-east-1"), "", "registry_auth.aws.access_key_id: must not be empty"},
		{"aws without secret", aws("AKID", "", "us-east-1"), "", "registry_auth.aws.secret_access_key: must not be empty"},
		{"aws whitespace secret", aws("AKID", "  ", "us-east-1"), "", "registry_auth.aws.secret_access_key: must not be blank"},
		{"gcp content", &GCPAuth{ServiceAccountJSON: NewSecret(validKeyJSON)}, googleImage, ""},
		{"gcp for Container Registry", &GCPAuth{ServiceAccountJSON: NewSecret(validKeyJSON)}, "eu.gcr.io/project/app:1", ""},
		{"gcp path", &GCPAuth{ServiceAccountJSON: NewSecret(keyFile)}, googleImage, ""},
		{"gcp for an image not on Google's registries", &GCPAuth{ServiceAccountJSON: NewSecret(validKeyJSON)}, "registry.example.com/app:1",
			"registry_auth.gcp: is a Google service-account key, but image is on registry.example.com"},
		{"gcp empty", &GCPAuth{}, "", "registry_auth.gcp.service_account_json: must not be empty"},
		{"gcp blank", &GCPAuth{ServiceAccountJSON: NewSecret(" \n")}, "", "registry_auth.gcp.service_account_json: must not be blank"},
		{"gcp malformed", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type": "service_account",`)}, "", "not valid JSON"},
		{"gcp wrong type", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type":"authorized_user"}`)}, "", `"type" must be "service_account"`},
		{"gcp missing fields", &GCPAuth{ServiceAccountJSON: NewSecret(`{"type":"service_account"}`)}, "", "missing client_email, private_key"},
		{"none: a public image", nil, "python:3.12", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateRegistryAuth(tt.auth, tt.image).Err()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestRegistryHosts(t *testing.T) {
	for _, tt := range []struct {
		image, host     string
		account, region string
		google          bool
	}{
		{"123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1", "123456789012.dkr.ecr.us-east-1.amazonaws.com", "123456789012", "us-east-1", false},
		{"123456789012.dkr.ecr-fips.us-gov-west-1.amazonaws.com/team/app@sha256:" + strings.Repeat("a", 64), "", "123456789012", "us-gov-west-1", false},
		{"123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/app", "", "123456789012", "cn-north-1", false},
		{"123456789012.dkr-ecr.eu-west-1.on.aws/app:2", "", "123456789012", "eu-west-1", false},
		{"123456789012.dkr.ecr.us-east-1.amazonaws.com.evil.example/app", "", "", "", false},
		{"public.ecr.aws/docker/library/python:3.12", "public.ecr.aws", "", "", false},
		{"python:3.12", "docker.io", "", "", false},
		{"europe-docker.pkg.dev/p/r/app:1", "europe-docker.pkg.dev", "", "", true},
		{"gcr.io/p/app", "gcr.io", "", "", true},
		{"asia.gcr.io/p/app", "", "", "", true},
		{"gcr.io.evil.example/p/app", "", "", "", false},
		{"docker.pkg.dev.evil.example/p/app", "", "", "", false},
	} {
		host, ok := RegistryHost(tt.image)
		if !ok || (tt.host != "" && host != tt.host) {
			t.Errorf("RegistryHost(%q) = %q, %v; want %q", tt.image, host, ok, tt.host)
		}
		if ecr, ok := ParseECRHost(host); ok != (tt.account != "") || ecr.AccountID != tt.account || ecr.Region != tt.region {
			t.Errorf("ParseECRHost(%q) = %+v, %v", host, ecr, ok)
		}
		if IsGoogleRegistryHost(host) != tt.google {
			t.Errorf("IsGoogleRegistryHost(%q) = %v, want %v", host, !tt.google, tt.google)
		}
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
	err := ValidateRegistryAuth(&GCPAuth{ServiceAccountJSON: NewSecret(leaky)}, googleImage).Err()
	if err == nil || strings.Contains(err.Error(), "PRIVATE-KEY-MATERIAL") {
		t.Errorf("error must exist and not quote the key: %v", err)
	}
}
