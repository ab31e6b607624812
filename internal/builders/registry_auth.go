package builders

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// RegistryAuth is the credential for pulling a private image: exactly one of *BasicAuth, *AWSAuth
// or *GCPAuth. The set is closed (the unexported method), so no consumer has to check that only
// one kind is set: a type switch over the three is exhaustive.
type RegistryAuth interface {
	Kind() RegistryAuthKind
	// problems lists what is missing or malformed in the credential.
	problems() FieldErrors
}

// RegistryAuthKind names which credential a RegistryAuth is, as HCL spells its block.
type RegistryAuthKind string

const (
	RegistryAuthBasic RegistryAuthKind = "basic"
	RegistryAuthAWS   RegistryAuthKind = "aws"
	RegistryAuthGCP   RegistryAuthKind = "gcp"
)

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

func (*BasicAuth) Kind() RegistryAuthKind { return RegistryAuthBasic }
func (*AWSAuth) Kind() RegistryAuthKind   { return RegistryAuthAWS }
func (*GCPAuth) Kind() RegistryAuthKind   { return RegistryAuthGCP }

// ValidateRegistryAuth lists the problems of a credential (none for nil).
func ValidateRegistryAuth(a RegistryAuth) FieldErrors {
	if a == nil {
		return nil
	}
	return a.problems()
}

func (b *BasicAuth) problems() FieldErrors {
	var errs FieldErrors
	if strings.TrimSpace(b.Username) == "" {
		errs = append(errs, FieldError{Field: "registry_auth.basic.username", Message: "must not be empty"})
	}
	if b.Password.IsEmpty() {
		errs = append(errs, FieldError{Field: "registry_auth.basic.password", Message: "must not be empty"})
	}
	return errs
}

func (a *AWSAuth) problems() FieldErrors {
	var errs FieldErrors
	if strings.TrimSpace(a.AccessKeyID) == "" {
		errs = append(errs, FieldError{Field: "registry_auth.aws.access_key_id", Message: "must not be empty"})
	}
	if a.SecretAccessKey.IsEmpty() {
		errs = append(errs, FieldError{Field: "registry_auth.aws.secret_access_key", Message: "must not be empty"})
	}
	if strings.TrimSpace(a.Region) == "" {
		errs = append(errs, FieldError{Field: "registry_auth.aws.region", Message: "is required (ECR tokens are regional)"})
	}
	return errs
}

func (g *GCPAuth) problems() FieldErrors {
	const field = "registry_auth.gcp.service_account_json"
	if g.ServiceAccountJSON.IsEmpty() {
		return FieldErrors{{Field: field, Message: "must not be empty"}}
	}
	if !g.IsContent() {
		return nil // a path: read and checked by Resolved, when the key is needed
	}
	if err := ValidateServiceAccountJSON(g.ServiceAccountJSON.Reveal()); err != nil {
		return FieldErrors{{Field: field, Message: strings.TrimPrefix(err.Error(), field+": ")}}
	}
	return nil
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
