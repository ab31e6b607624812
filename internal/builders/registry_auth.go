package builders

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
)

// RegistryAuth is the credential for pulling a private image: exactly one of *BasicAuth, *AWSAuth
// or *GCPAuth. The set is closed (the unexported method), so no consumer has to check that only
// one kind is set: a type switch over the three is exhaustive.
type RegistryAuth interface {
	Kind() RegistryAuthKind
	// problems lists what is missing or malformed in the credential, and whether it may be sent
	// to host, the image's registry ("" when there is no valid image to tell).
	problems(host string) FieldErrors
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

// ValidateRegistryAuth lists the problems of a credential (none for nil) for pulling image. A
// credential goes only to the registries it is for: an AWS key's ECR token to the ECR registry of
// image, in the key's region; a Google key (or its token) to Google's registries; a basic login
// to image's registry (and the token service that registry names, which only the pull sees).
func ValidateRegistryAuth(a RegistryAuth, image string) FieldErrors {
	if a == nil {
		return nil
	}
	host, _ := RegistryHost(image)
	return a.problems(host)
}

func (b *BasicAuth) problems(string) FieldErrors {
	const field = "registry_auth.basic."
	var errs FieldErrors
	switch {
	case strings.TrimSpace(b.Username) == "":
		errs = append(errs, FieldError{Field: field + "username", Message: "must not be empty"})
	case strings.ContainsFunc(b.Username, unicode.IsControl):
		errs = append(errs, FieldError{Field: field + "username", Message: "must not contain control characters such as a newline"})
	case strings.Contains(b.Username, ":"):
		errs = append(errs, FieldError{Field: field + "username",
			Message: "must not contain ':', which basic authentication puts between username and password (RFC 7617)"})
	}
	return append(errs, blankSecret(field+"password", b.Password)...)
}

func (a *AWSAuth) problems(host string) FieldErrors {
	const field = "registry_auth.aws"
	var errs FieldErrors
	if strings.TrimSpace(a.AccessKeyID) == "" {
		errs = append(errs, FieldError{Field: field + ".access_key_id", Message: "must not be empty"})
	}
	errs = append(errs, blankSecret(field+".secret_access_key", a.SecretAccessKey)...)
	region := strings.TrimSpace(a.Region)
	switch {
	case region == "":
		errs = append(errs, FieldError{Field: field + ".region", Message: "is required (ECR tokens are regional)"})
	case !awsRegionPattern.MatchString(region):
		errs = append(errs, FieldError{Field: field + ".region", Message: fmt.Sprintf("%q is not an AWS region (such as \"us-east-1\")", a.Region)})
	}
	if host == "" {
		return errs
	}
	registry, ok := ParseECRHost(host)
	switch {
	case !ok:
		errs = append(errs, FieldError{Field: field, Reads: []string{"image"}, Message: fmt.Sprintf(
			"is an Amazon ECR login, but image is on %s, which is not an ECR registry (<account>.dkr.ecr.<region>.amazonaws.com); "+
				"its token would be sent there. Use registry_auth.basic for %s", host, host)})
	case region != "" && registry.Region != region:
		errs = append(errs, FieldError{Field: field + ".region", Reads: []string{"image"}, Message: fmt.Sprintf(
			"is %q but image is in the ECR registry %s, in %q; ECR tokens are regional: set region = %q", region, host, registry.Region, registry.Region)})
	}
	return errs
}

func (g *GCPAuth) problems(host string) FieldErrors {
	const field = "registry_auth.gcp.service_account_json"
	var errs FieldErrors
	if host != "" && !IsGoogleRegistryHost(host) {
		errs = append(errs, FieldError{Field: "registry_auth.gcp", Reads: []string{"image"}, Message: fmt.Sprintf(
			"is a Google service-account key, but image is on %s, which is not Artifact Registry (<location>-docker.pkg.dev) "+
				"or Container Registry (gcr.io); the key or its token would be sent there. Use registry_auth.basic for %s", host, host)})
	}
	if problems := blankSecret(field, g.ServiceAccountJSON); problems != nil {
		return append(errs, problems...)
	}
	if !g.IsContent() {
		return errs // a path: read and checked by Resolved, when the key is needed
	}
	if err := ValidateServiceAccountJSON(g.ServiceAccountJSON.Reveal()); err != nil {
		errs = append(errs, FieldError{Field: field, Message: strings.TrimPrefix(err.Error(), field+": ")})
	}
	return errs
}

// blankSecret is the problem of a secret that is empty or only whitespace, which no registry
// takes; the message never quotes it.
func blankSecret(field string, s Secret) FieldErrors {
	switch {
	case s.IsEmpty():
		return FieldErrors{{Field: field, Message: "must not be empty"}}
	case strings.TrimSpace(s.Reveal()) == "":
		return FieldErrors{{Field: field, Message: "must not be blank (only whitespace)"}}
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
