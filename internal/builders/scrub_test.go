package builders

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

const pemKey = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nq1w2e3r4t5y6u7i8o9p0a1s/d3f4g5h6j7k8l9z0x1c2v3b4n5m6\n-----END PRIVATE KEY-----\n"

// The encoders below are how servers re-serialise what they echo. Scrub shares no code with them:
// it decodes, they encode, so a form Scrub does not know is a test failure rather than a blind spot.

// goJSON is s inside a JSON string as Go's encoder writes it, with or without HTML escaping.
func goJSON(s string, escapeHTML bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")[1 : b.Len()-2]
}

// slashJSON is s as PHP's json_encode writes it: '/' escaped as `\/`.
func slashJSON(s string) string { return strings.ReplaceAll(goJSON(s, false), "/", `\/`) }

// uEverything is s with every character escaped as \uXXXX (upper-case hex, surrogate pairs), as
// some re-serialisers write non-ASCII and Python's ensure_ascii writes it.
func uEverything(s string) string {
	var b strings.Builder
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, `\u%04X`, u)
	}
	return b.String()
}

// textEncoders each encode text character by character, so encode(a+b) = encode(a)+encode(b).
var textEncoders = map[string]func(string) string{
	"encoding/json":                 func(s string) string { return goJSON(s, true) },
	"encoding/json, no HTML escape": func(s string) string { return goJSON(s, false) },
	`JSON with \/`:                  slashJSON,
	`JSON with \u everything`:       uEverything,
	"JSON quoting JSON":             func(s string) string { return goJSON(goJSON(s, true), true) },
	"html.EscapeString":             html.EscapeString,
	"url.QueryEscape":               url.QueryEscape,
	"url.PathEscape":                url.PathEscape,
	"percent-encoded JSON":          func(s string) string { return url.QueryEscape(slashJSON(s)) },
}

var base64Encodings = map[string]*base64.Encoding{"std": base64.StdEncoding, "url": base64.URLEncoding,
	"raw std": base64.RawStdEncoding, "raw url": base64.RawURLEncoding}

// base64Core is the part of enc(prefix+secret+suffix) that only secret's bytes decide: what
// survives of the secret in that encoding whatever surrounds it.
func base64Core(enc *base64.Encoding, prefix, secret, suffix string) (text, core string) {
	text = enc.EncodeToString([]byte(prefix + secret + suffix))
	first := (8*len(prefix) + 5) / 6
	last := 8 * (len(prefix) + len(secret)) / 6
	if last <= first {
		return text, ""
	}
	return text, text[first:last]
}

// survives tells whether form is in got outside the redactions.
func survives(got, form string) bool {
	return strings.Contains(strings.ReplaceAll(got, Redacted, "\xff"), form)
}

func TestScrubEchoedForms(t *testing.T) {
	const awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	const password = `pä/ss"w<o>rd&1+=%` // '/', non-ASCII, JSON and HTML specials, '+', '%'
	for _, secret := range []string{awsSecret, password, pemKey} {
		for name, encode := range textEncoders {
			echoed := `{"message":"invalid credentials: ` + encode(secret) + `"}`
			if got := Scrub(echoed, NewSecret(secret)); survives(got, encode(secret)) || !strings.Contains(got, Redacted) {
				t.Errorf("%s: %q survives Scrub: %q", name, encode(secret), got)
			}
		}
	}
}

// TestScrubPEMLines: a key quoted line by line, each line escaped as the echoing server likes.
func TestScrubPEMLines(t *testing.T) {
	for name, encode := range textEncoders {
		for _, line := range strings.Split(pemKey, "\n") {
			if len(line) < minScrubbedPart || strings.HasPrefix(line, "-----") {
				continue
			}
			echoed := `{"error":"asn1: bad key line ` + encode(line) + ` at 3"}`
			if got := Scrub(echoed, NewSecret(pemKey)); survives(got, encode(line)) {
				t.Errorf("%s: a line of the key survives: %q", name, got)
			}
		}
	}
}

// TestScrubBase64AnyAlignment: a token endpoint echoing the Authorization header quotes
// base64("user:password"); the password must go whatever the username's length, and the whole
// ECR token (base64 "AWS:password") too.
func TestScrubBase64AnyAlignment(t *testing.T) {
	const password = "s3cret-registry-password"
	for user := range 6 {
		for name, enc := range base64Encodings {
			prefix := strings.Repeat("u", user) + ":"
			header, core := base64Core(enc, prefix, password, "")
			got := Scrub("echo: Authorization: Basic "+header, NewSecret(password))
			if survives(got, core) {
				t.Errorf("%s, username of %d: the password's base64 %q survives in %q", name, user, core, got)
			}
			// Redacted from the first group holding a byte of the password; the padding stays.
			firstGroup := len(prefix) / 3 * 4
			want := "echo: Authorization: Basic " + header[:firstGroup] + Redacted + header[len(strings.TrimRight(header, "=")):]
			if got != want {
				t.Errorf("%s, username of %d: Scrub = %q, want %q", name, user, got, want)
			}
		}
	}
	ecrToken := base64.StdEncoding.EncodeToString([]byte("AWS:" + password))
	if got := Scrub(`{"authorizationToken":"`+ecrToken+`"}`, NewSecret(password)); strings.Contains(got, ecrToken[8:]) {
		t.Errorf("the ECR token survives: %q", got)
	}
}

// TestScrubRedactsWhereTheSecretWas: the redaction replaces exactly the encoded secret, and the
// text around it stays readable.
func TestScrubRedactsWhereTheSecretWas(t *testing.T) {
	for _, tt := range []struct{ secret, echoed, want string }{
		{"p/w0rd!", `{"password":"p\/w0rd!"}`, `{"password":"[REDACTED]"}`},
		{"pä55word", `{"password":"p\u00e455word","user":"ci"}`, `{"password":"[REDACTED]","user":"ci"}`},
		{"p&ss<word>", `<p>bad password p&amp;ss&lt;word&gt; for ci</p>`, `<p>bad password [REDACTED] for ci</p>`},
		{"p@ss w0rd", `GET /login?pw=p%40ss+w0rd&u=ci`, `GET /login?pw=[REDACTED]&u=ci`},
		{"hunter22", `first hunter22, then "hunter22\"`, `first [REDACTED], then "[REDACTED]\"`},
		{"😀emoji-pw", `{"pw":"\uD83D\uDE00emoji-pw"}`, `{"pw":"[REDACTED]"}`},
		{"nested/pw", `{"message":"body: {\"pw\":\"nested\\\/pw\"}"}`, `{"message":"body: {\"pw\":\"[REDACTED]\"}"}`},
	} {
		if got := Scrub(tt.echoed, NewSecret(tt.secret)); got != tt.want {
			t.Errorf("Scrub(%q) = %q, want %q", tt.echoed, got, tt.want)
		}
	}
}

func TestScrubLeavesOtherTextAlone(t *testing.T) {
	for _, text := range []string{
		"build failed: manifest unknown for python:3.12 (END PRIVATE)",
		`{"message":"a \/ path, caf\u00e9, &amp; 100% + more","code":400}`,
		"Authorization: Basic dXNlcjpvdGhlcg==",
	} {
		if got := Scrub(text, NewSecret(""), NewSecret(pemKey), NewSecret("hunter22")); got != text {
			t.Errorf("Scrub changed text without a secret in it: %q -> %q", text, got)
		}
	}
}

func TestScrubError(t *testing.T) {
	const secret = "s3cret/pw"
	deadline := fmt.Errorf("registry said %s: %w", slashJSON(secret), context.DeadlineExceeded)
	staged := AtStage(StageImagePull, deadline, "log line")

	got := ScrubError(staged, NewSecret(secret))
	if strings.Contains(got.Error(), `s3cret\/pw`) || !strings.Contains(got.Error(), Redacted) {
		t.Errorf("ScrubError left the secret: %v", got)
	}
	if StageOf(got, "") != StageTimeout || !errors.Is(got, context.DeadlineExceeded) {
		t.Errorf("ScrubError lost what the error is: stage %s, %v", StageOf(got, ""), got)
	}
	var se *StageError
	if !errors.As(got, &se) || se.Stage != StageImagePull || len(se.Logs) != 1 {
		t.Errorf("ScrubError lost the stage or the logs: %#v", se)
	}
	if errors.Unwrap(errors.Unwrap(got)) != nil {
		t.Error("a scrubbed error must not unwrap to the text that leaked")
	}
	if clean := errors.New("nothing secret"); ScrubError(clean, NewSecret(secret)) != clean || ScrubError(nil) != nil {
		t.Error("an error without secrets must come back as it is")
	}
}

// FuzzScrub encodes a secret with independent encoders (see textEncoders), inside text of the
// fuzzer's choosing, and with base64 at every alignment, and requires no encoding of it to
// survive Scrub. Terraform strings are UTF-8, so secrets are too.
func FuzzScrub(f *testing.F) {
	for _, seed := range [][3]string{
		{"hunter22", "x ", " y"}, {pemKey, `{"k":"`, `"}`}, {`a"b\c/d`, `\`, `\u`}, {"pä/ss&w<o>rd", "%", "+"},
		{"wJalrXUtnFEMI/K7MDENG", "AWS:", ""}, {"😀😀😀😀", "&amp", "#"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, secret, before, after string) {
		if len(secret) < 4 || !utf8.ValidString(secret) || !utf8.ValidString(before) || !utf8.ValidString(after) {
			t.Skip() // shorter secrets are not credentials any backend accepts
		}
		if len(secret) > 256 || len(before)+len(after) > 256 {
			t.Skip() // a secret's PEM block is scrubbed line by line: keep each input quick
		}
		check := func(how, text, form string) {
			if form == "" || strings.Count(text, form) != 1 {
				return // the text around it happens to hold the same characters: not the secret's
			}
			if got := Scrub(text, NewSecret(secret)); survives(got, form) {
				t.Fatalf("%s: %q survives in %q", how, form, got)
			}
		}
		for name, encode := range textEncoders {
			check(name, encode(before)+encode(secret)+encode(after), encode(secret))
		}
		for name, enc := range base64Encodings {
			for offset := range 3 {
				prefix := strings.Repeat("u", offset) + before
				text, core := base64Core(enc, prefix, secret, after)
				check("base64 "+name, "Basic "+text, core)
			}
		}
		key := pemOf(secret)
		for _, line := range strings.Split(key, "\n") {
			if len(line) >= minScrubbedPart && !strings.HasPrefix(line, "-----") {
				for name, encode := range textEncoders {
					text := encode(before) + encode(line) + encode(after)
					if strings.Count(text, encode(line)) == 1 && survives(Scrub(text, NewSecret(key)), encode(line)) {
						t.Fatalf("PEM line, %s: %q survives", name, encode(line))
					}
				}
			}
		}
	})
}

// pemOf is a PEM block of b, its base64 split into 64-character lines as a key file has it.
func pemOf(b string) string {
	body := base64.StdEncoding.EncodeToString([]byte(b))
	var lines []string
	for len(body) > 64 {
		lines, body = append(lines, body[:64]), body[64:]
	}
	return "-----BEGIN PRIVATE KEY-----\n" + strings.Join(append(lines, body), "\n") + "\n-----END PRIVATE KEY-----\n"
}
