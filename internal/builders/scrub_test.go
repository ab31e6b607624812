package builders

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

const pemKey = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nq1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c2v3b4n5m6\n-----END PRIVATE KEY-----\n"

func TestScrubEveryEchoedForm(t *testing.T) {
	password := `p"a\ss<w>&rd%20+/=`
	jsonOf := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	basic := base64.StdEncoding.EncodeToString([]byte("ci-bot:" + password))
	for _, tt := range []struct {
		name, secret, echoed string
	}{
		{"verbatim", password, "bad password " + password},
		{"json-escaped", password, `{"message":"invalid body: {\"password\":` + jsonOf(password) + `}"}`},
		{"json-escaped PEM key", pemKey, `{"serviceAccountJson":` + jsonOf(pemKey) + `}`},
		{"percent-encoded", password, "POST /login?password=" + url.QueryEscape(password)},
		{"path-escaped", password, "GET /v2/" + url.PathEscape(password) + "/manifests"},
		{"base64", password, "token " + base64.StdEncoding.EncodeToString([]byte(password))},
		{"raw url base64", password, "jwt ." + base64.RawURLEncoding.EncodeToString([]byte(password)) + "."},
		{"PEM line quoted alone", pemKey, "asn1: bad key line MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7 at 3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Scrub(tt.echoed, NewSecret(tt.secret))
			if !strings.Contains(got, Redacted) {
				t.Errorf("Scrub(%q) = %q: nothing redacted", tt.echoed, got)
			}
			for _, form := range secretForms(tt.secret) {
				if strings.Contains(got, form) {
					t.Errorf("Scrub left the form %q in %q", form, got)
				}
			}
		})
	}
	// A basic-auth header is base64("user:password"): whoever builds one scrubs the whole credential too.
	if got := Scrub("Authorization: Basic "+basic, NewSecret("ci-bot:"+password)); strings.Contains(got, basic) {
		t.Errorf("the basic credential's base64 survived: %q", got)
	}
}

func TestScrubLeavesOtherTextAlone(t *testing.T) {
	text := "build failed: manifest unknown for python:3.12 (END PRIVATE)"
	if got := Scrub(text, NewSecret(""), NewSecret(pemKey)); got != text {
		t.Errorf("Scrub changed text without a secret in it: %q", got)
	}
}

func FuzzScrub(f *testing.F) {
	for _, seed := range [][2]string{{"hunter2", "x hunter2 y"}, {pemKey, `{"k":"` + strings.ReplaceAll(pemKey, "\n", `\n`) + `"}`}, {`a"b\c`, `a\"b\\c`}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, secret, text string) {
		if len(secret) < 4 {
			t.Skip() // shorter secrets are not credentials any backend accepts
		}
		echoed := text + secret + jsonEscaped(secret, false) + url.QueryEscape(secret) + base64.StdEncoding.EncodeToString([]byte(secret))
		got := Scrub(echoed, NewSecret(secret))
		for _, form := range []string{secret, jsonEscaped(secret, false), url.QueryEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret))} {
			if strings.Contains(got, form) && !strings.Contains(Redacted, form) {
				t.Fatalf("secret form %q survives in %q", form, got)
			}
		}
	})
}
