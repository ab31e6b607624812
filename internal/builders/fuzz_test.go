package builders

import (
	"strings"
	"testing"
)

// FuzzValidateImageReference: any input is either accepted or rejected with an error that names
// the field; the parser never panics.
func FuzzValidateImageReference(f *testing.F) {
	for _, seed := range []string{
		"python", "python:3.12-slim", "docker.io/library/python:3.12", "ghcr.io/org/img@sha256:" + strings.Repeat("a", 64),
		"123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4", "localhost:5000/x", "Python:3", "a b", "", ":", "@", "x:" + strings.Repeat("t", 200),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if err := ValidateImageReference(image); err != nil && !strings.HasPrefix(err.Error(), "image: ") {
			t.Fatalf("error does not name the field: %v", err)
		}
	})
}

// FuzzRegistryAuth: construction either validates or fails with a field-named error, and no
// error ever quotes the secret material it was given.
func FuzzRegistryAuth(f *testing.F) {
	f.Add("u", "pw", "AKID", "us-east-1", validKeyJSON)
	f.Add("", "", "", "", "")
	f.Add("u", "pw", "AKID", "", `{"type":"service_account","client_email":"x"`)
	f.Add(" ", "\n", "k", " ", `{"type":"authorized_user"}`)
	f.Add("u", "p", "k", "r", `[1,2,3]`)
	f.Fuzz(func(t *testing.T, user, password, keyID, region, keyJSON string) {
		const marker = "ZZ-SECRET-MARKER-ZZ"
		secret := func(s string) Secret { return NewSecret(s + marker) }
		for _, build := range []func() (*RegistryAuth, error){
			func() (*RegistryAuth, error) { return NewBasicAuth(user, secret(password)) },
			func() (*RegistryAuth, error) { return NewAWSAuth(keyID, secret(password), region) },
			func() (*RegistryAuth, error) { return NewGCPAuth(NewSecret(keyJSON)) },
		} {
			auth, err := build()
			if err != nil {
				if !strings.HasPrefix(err.Error(), "registry_auth.") {
					t.Fatalf("error does not name the field: %v", err)
				}
				if strings.Contains(err.Error(), marker) || (len(keyJSON) > 8 && strings.Contains(err.Error(), keyJSON)) {
					t.Fatalf("error quotes secret material: %v", err)
				}
				continue
			}
			if auth.Kind() == "" {
				t.Fatalf("a valid auth must have exactly one kind: %+v", auth)
			}
		}
	})
}
