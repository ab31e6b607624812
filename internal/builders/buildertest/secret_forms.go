package buildertest

import (
	"encoding/base64"
	"encoding/json"
	"html"
	"net/url"
	"strings"
	"testing"
)

// SecretForms lists v as a server may echo it: verbatim, JSON-escaped (with and without HTML
// escaping, with `\/` as PHP writes it), HTML-escaped, percent-encoded, base64, and base64 of
// "user:" + v with usernames of each length modulo 3 (a basic-auth header). Tests echo each, and
// look for each, so a leak in any encoding fails.
func SecretForms(v string) []string {
	quoted, _ := json.Marshal(v) // a string always encodes; HTML-escaped, as Go's encoder writes bodies
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	unescaped := strings.Trim(strings.TrimSpace(plain.String()), `"`)
	forms := []string{v, strings.Trim(string(quoted), `"`), unescaped, strings.ReplaceAll(unescaped, "/", `\/`),
		html.EscapeString(v), url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString([]byte(v))}
	for _, user := range []string{"u:", "us:", "usr:"} {
		forms = append(forms, base64.StdEncoding.EncodeToString([]byte(user+v)))
	}
	return forms
}

// leakForms are SecretForms and what is left of v in base64 whatever surrounds it: at each
// alignment, the characters v's bytes alone decide.
func leakForms(v string) []string {
	forms := SecretForms(v)
	for offset := range 3 {
		encoded := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("u", offset) + v))
		first, last := (8*offset+5)/6, 8*(offset+len(v))/6
		if last > first {
			forms = append(forms, encoded[first:last])
		}
	}
	return forms
}

// AssertNoSecretForms fails the test when text holds any form (leakForms) of any of secrets.
// where names the text in the message, which shows only the start of the secret.
func AssertNoSecretForms(t testing.TB, where, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for _, form := range leakForms(s) {
			if len(form) >= 4 && strings.Contains(text, form) {
				t.Errorf("%s holds a secret (%q…)", where, form[:4])
			}
		}
	}
}

// NoPartOfSecret fails when 5 bytes in a row of secret are in text: a secret printed in pieces
// (two log lines, two output events) must leave none of them.
func NoPartOfSecret(t *testing.T, where, text, secret string) {
	t.Helper()
	for i := 0; i+5 <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+5]) {
			t.Errorf("%s holds %q of the secret:\n%s", where, secret[i:i+5], text)
			return
		}
	}
}
