package builders

import (
	"strings"
	"testing"
)

// FuzzValidateImageReference: any image is either accepted or rejected with problems on the
// image field alone; the parser never panics.
func FuzzValidateImageReference(f *testing.F) {
	for _, seed := range []string{
		"python", "python:3.12-slim", "docker.io/library/python:3.12", "ghcr.io/org/img@sha256:" + strings.Repeat("a", 64),
		"123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4", "localhost:5000/x", "Python:3", "a b", "", ":", "@", "x:" + strings.Repeat("t", 200),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, image string) {
		problems := TemplateSpec{TemplateID: "py", Image: image}.Validate(&fakeBackend)
		for _, p := range problems {
			if p.Field != "image" {
				t.Fatalf("problem not on the image field: %v", p)
			}
		}
		if (ValidateImageReference(image) != nil || strings.TrimSpace(image) == "") != (len(problems) > 0) {
			t.Fatalf("image %q: problems %v disagree with the reference parser", image, problems)
		}
	})
}

// FuzzRegistryAuth: construction either validates or fails with a field-named error, and no
// error ever quotes the secret material it was given.
func FuzzRegistryAuth(f *testing.F) {
	f.Add("u", "pw", "AKID", "us-east-1", validKeyJSON, "123456789012.dkr.ecr.us-east-1.amazonaws.com/x:1")
	f.Add("", "", "", "", "", "")
	f.Add("u", "pw", "AKID", "", `{"type":"service_account","client_email":"x"`, "gcr.io/p/x")
	f.Add(" ", "\n", "k", " ", `{"type":"authorized_user"}`, "python")
	f.Add("u", "p", "k", "r", `[1,2,3]`, "not an image")
	f.Fuzz(func(t *testing.T, user, password, keyID, region, keyJSON, image string) {
		const marker = "ZZ-SECRET-MARKER-ZZ"
		secret := func(s string) Secret { return NewSecret(s + marker) }
		for _, auth := range []RegistryAuth{
			&BasicAuth{Username: user, Password: secret(password)},
			&AWSAuth{AccessKeyID: keyID, SecretAccessKey: secret(password), Region: region},
			&GCPAuth{ServiceAccountJSON: NewSecret(keyJSON)},
		} {
			for _, problem := range ValidateRegistryAuth(auth, image) {
				if !strings.HasPrefix(problem.Field, "registry_auth."+string(auth.Kind())) {
					t.Fatalf("problem not on a field of its kind: %v", problem)
				}
				if strings.Contains(problem.Error(), marker) || (len(keyJSON) > 8 && strings.Contains(problem.Error(), keyJSON)) {
					t.Fatalf("problem quotes secret material: %v", problem)
				}
			}
		}
	})
}
