package builders

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// RegistryAuth holds credentials for pulling a private image: exactly one of Basic, AWS or GCP.
// Build it with NewBasicAuth, NewAWSAuth or NewGCPAuth, which validate on construction.
type RegistryAuth struct {
	Basic *BasicAuth
	AWS   *AWSAuth
	GCP   *GCPAuth
}

// BasicAuth is a plain registry login.
type BasicAuth struct {
	Username string
	Password Secret
}

// AWSAuth is an IAM key pair for ECR. Region is required: ECR tokens are regional.
type AWSAuth struct {
	AccessKeyID     string
	SecretAccessKey Secret
	Region          string
}

// GCPAuth is a Google service-account key, given as its JSON content or as a path to a key file.
type GCPAuth struct {
	ServiceAccountJSON Secret
}

// RegistryAuthKind names which credential a RegistryAuth holds.
type RegistryAuthKind string

const (
	RegistryAuthBasic RegistryAuthKind = "basic"
	RegistryAuthAWS   RegistryAuthKind = "aws"
	RegistryAuthGCP   RegistryAuthKind = "gcp"
)

// NewBasicAuth validates and returns a basic registry login.
func NewBasicAuth(username string, password Secret) (*RegistryAuth, error) {
	a := &RegistryAuth{Basic: &BasicAuth{Username: username, Password: password}}
	return a, a.Validate()
}

// NewAWSAuth validates and returns ECR credentials.
func NewAWSAuth(accessKeyID string, secretAccessKey Secret, region string) (*RegistryAuth, error) {
	a := &RegistryAuth{AWS: &AWSAuth{AccessKeyID: accessKeyID, SecretAccessKey: secretAccessKey, Region: region}}
	return a, a.Validate()
}

// NewGCPAuth validates and returns Google credentials (JSON content or a key file path).
func NewGCPAuth(serviceAccountJSON Secret) (*RegistryAuth, error) {
	a := &RegistryAuth{GCP: &GCPAuth{ServiceAccountJSON: serviceAccountJSON}}
	return a, a.Validate()
}

// Kind tells which credential is set; it is empty unless exactly one is.
func (a *RegistryAuth) Kind() RegistryAuthKind {
	var kinds []RegistryAuthKind
	if a.Basic != nil {
		kinds = append(kinds, RegistryAuthBasic)
	}
	if a.AWS != nil {
		kinds = append(kinds, RegistryAuthAWS)
	}
	if a.GCP != nil {
		kinds = append(kinds, RegistryAuthGCP)
	}
	if len(kinds) != 1 {
		return ""
	}
	return kinds[0]
}

// Validate checks that exactly one credential is set and that it is complete.
func (a *RegistryAuth) Validate() error {
	set := 0
	for _, isSet := range []bool{a.Basic != nil, a.AWS != nil, a.GCP != nil} {
		if isSet {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("registry_auth: exactly one of basic, aws or gcp must be set, got %d", set)
	}
	switch {
	case a.Basic != nil:
		return a.Basic.validate()
	case a.AWS != nil:
		return a.AWS.validate()
	default:
		return a.GCP.validate()
	}
}

func (b *BasicAuth) validate() error {
	var errs []error
	if strings.TrimSpace(b.Username) == "" {
		errs = append(errs, errors.New("registry_auth.basic.username: must not be empty"))
	}
	if b.Password.IsEmpty() {
		errs = append(errs, errors.New("registry_auth.basic.password: must not be empty"))
	}
	return errors.Join(errs...)
}

func (a *AWSAuth) validate() error {
	var errs []error
	if strings.TrimSpace(a.AccessKeyID) == "" {
		errs = append(errs, errors.New("registry_auth.aws.access_key_id: must not be empty"))
	}
	if a.SecretAccessKey.IsEmpty() {
		errs = append(errs, errors.New("registry_auth.aws.secret_access_key: must not be empty"))
	}
	if strings.TrimSpace(a.Region) == "" {
		errs = append(errs, errors.New("registry_auth.aws.region: is required (ECR tokens are regional)"))
	}
	return errors.Join(errs...)
}

func (g *GCPAuth) validate() error {
	if g.ServiceAccountJSON.IsEmpty() {
		return errors.New("registry_auth.gcp.service_account_json: must not be empty")
	}
	if !g.IsContent() {
		return nil // a path: read and checked by Resolved, when the key is needed
	}
	return ValidateServiceAccountJSON(g.ServiceAccountJSON.Reveal())
}

// IsContent tells whether ServiceAccountJSON holds JSON content rather than a file path.
func (g *GCPAuth) IsContent() bool {
	return strings.HasPrefix(strings.TrimSpace(g.ServiceAccountJSON.Reveal()), "{")
}

// Resolved returns the key's JSON content, reading the file when a path was given.
func (g *GCPAuth) Resolved() (Secret, error) {
	if g.IsContent() {
		return g.ServiceAccountJSON, nil
	}
	content, err := readKeyFile(g.ServiceAccountJSON.Reveal())
	if err != nil {
		return Secret{}, err
	}
	if err := ValidateServiceAccountJSON(string(content)); err != nil {
		return Secret{}, err
	}
	return NewSecret(string(content)), nil
}

// maxKeyFileBytes bounds a service-account key file; real ones are about 2.3 KB.
const maxKeyFileBytes = 64 << 10

// readKeyFile reads a key file only when it is a regular file of at most maxKeyFileBytes: a FIFO
// or a device would block or never end. The path is not secret, but it came through a secret
// field, so errors name it only as "key file".
func readKeyFile(path string) ([]byte, error) {
	info, err := os.Stat(path) // before opening: opening a FIFO blocks until someone writes it
	if err == nil && info.Mode().IsRegular() {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			defer func() { _ = f.Close() }()
			info, err = f.Stat() // the file opened, in case the path changed in between
		}
		if err == nil && info.Mode().IsRegular() && info.Size() <= maxKeyFileBytes {
			return io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
		}
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("registry_auth.gcp.service_account_json: reading key file: %w", errors.Unwrap(err))
	case !info.Mode().IsRegular():
		return nil, errors.New("registry_auth.gcp.service_account_json: the key file is not a regular file")
	default:
		return nil, fmt.Errorf("registry_auth.gcp.service_account_json: the key file is %d bytes; a service-account key is a few KB (at most %d)", info.Size(), maxKeyFileBytes)
	}
}

// ValidateServiceAccountJSON checks that content is a Google service-account key. Errors never quote it.
func ValidateServiceAccountJSON(content string) error {
	var key struct {
		Type        string `json:"type"`
		ClientEmail string `json:"client_email"`
		PrivateKey  string `json:"private_key"`
	}
	if err := json.Unmarshal([]byte(content), &key); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return fmt.Errorf("registry_auth.gcp.service_account_json: not valid JSON (syntax error at byte %d)", syntax.Offset)
		}
		return errors.New("registry_auth.gcp.service_account_json: must be a JSON object")
	}
	var missing []string
	if key.Type != "service_account" {
		return fmt.Errorf(`registry_auth.gcp.service_account_json: "type" must be "service_account", got %q`, key.Type)
	}
	if key.ClientEmail == "" {
		missing = append(missing, "client_email")
	}
	if key.PrivateKey == "" {
		missing = append(missing, "private_key")
	}
	if len(missing) > 0 {
		return fmt.Errorf("registry_auth.gcp.service_account_json: missing %s", strings.Join(missing, ", "))
	}
	return nil
}
