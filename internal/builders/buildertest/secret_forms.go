package buildertest

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// SecretForms lists v as a server may echo it, the forms builders.Scrub covers: verbatim,
// JSON-escaped, percent-encoded and base64. Tests look for each so a leak in any encoding fails.
func SecretForms(v string) []string {
	quoted, _ := json.Marshal(v) // a string always encodes; HTML-escaped, as Go's encoder writes bodies
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return []string{v, strings.Trim(string(quoted), `"`), strings.Trim(strings.TrimSpace(plain.String()), `"`),
		url.QueryEscape(v), url.PathEscape(v), base64.StdEncoding.EncodeToString([]byte(v))}
}

// AssertNoSecretForms fails the test when text holds any form (SecretForms) of any of secrets.
// where names the text in the message, which shows only the start of the secret.
func AssertNoSecretForms(t testing.TB, where, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for _, form := range SecretForms(s) {
			if len(form) >= 4 && strings.Contains(text, form) {
				t.Errorf("%s holds a secret (%q…)", where, form[:4])
			}
		}
	}
}
