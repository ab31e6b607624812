package builders

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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

// FuzzScrubEncodings: no secret, in any encoding the scrubber models, survives in the text around
// it: each text encoding (textEncoders), base64 at every alignment, base64 of the JSON body Go's
// encoder writes (& < > " escaped as \u0026 \u003c \u003e \"), and the secret split, in any of
// those text encodings, across two lines of a build's output (two execd events, two E2B log
// entries), bare or under stderr's label.
func FuzzScrubEncodings(f *testing.F) {
	for _, seed := range []struct {
		secret, before, after string
		split                 uint8
	}{
		{"hunter22-password", "x ", " y", 6}, {`p&ss<w>rd"1`, `{"k":"`, `"}`, 2}, {"pä/ss&w<o>rd", "%", "+", 3},
		{"wJalrXUtnFEMI/K7MDENG", "AWS:", "", 10}, {"😀😀😀😀", "&amp", "#", 4}, {`a"b\c/d+e`, `\`, `\u`, 1},
	} {
		f.Add(seed.secret, seed.before, seed.after, seed.split)
	}
	f.Fuzz(func(t *testing.T, secret, before, after string, split uint8) {
		if len(secret) < 4 || !utf8.ValidString(secret) || !utf8.ValidString(before) || !utf8.ValidString(after) {
			t.Skip() // shorter secrets are not credentials any backend accepts; Terraform strings are UTF-8
		}
		if len(secret) > 256 || len(before)+len(after) > 256 {
			t.Skip()
		}
		check := func(how, text, form, got string) {
			if form != "" && strings.Count(text, form) == 1 && survives(got, form) {
				t.Fatalf("%s: %q survives in %q", how, form, got)
			}
		}
		for name, encode := range textEncoders {
			text := encode(before) + encode(secret) + encode(after)
			check(name, text, encode(secret), Scrub(text, NewSecret(secret)))
		}
		for name, enc := range base64Encodings {
			for offset := range 3 {
				text, core := base64Core(enc, strings.Repeat("u", offset)+before, secret, after)
				check("base64 "+name, "Basic "+text, core, Scrub("Basic "+text, NewSecret(secret)))
			}
		}
		body, _ := json.Marshal(map[string]string{"before": before, "password": secret, "after": after})
		if quoted, _ := json.Marshal(secret); strings.Count(string(body), string(quoted)) == 1 {
			escaped := strings.Trim(string(quoted), `"`)
			at := strings.Index(string(body), escaped)
			text, core := base64Core(base64.StdEncoding, string(body[:at]), escaped, string(body[at+len(escaped):]))
			check("base64 of a JSON body", "request body: "+text, core, Scrub("request body: "+text, NewSecret(secret)))
		}
		k := int(split) % len(secret)
		for k > 0 && !utf8.RuneStart(secret[k]) {
			k-- // encoders write characters
		}
		if k == 0 {
			return
		}
		for name, encode := range textEncoders {
			for _, label := range []string{"", "stderr: "} {
				first, second := encode(before)+encode(secret[:k]), encode(secret[k:])+encode(after)
				l := BuildLog{Secrets: []Secret{NewSecret(secret)}}
				l.AddOutput(label, first)
				l.AddOutput(label, second)
				lines := l.Lines()
				check("split, "+name, first, encode(secret[:k]), strings.TrimPrefix(lines[0], label))
				check("split, "+name, second, encode(secret[k:]), strings.TrimPrefix(lines[1], label))
			}
		}
	})
}
