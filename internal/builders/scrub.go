package builders

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// minScrubbedPart is the shortest line of a multi-line secret (a PEM key's base64 lines) that is
// scrubbed on its own: shorter ones ("-----END PRIVATE KEY-----" aside) would redact ordinary words.
const minScrubbedPart = 16

// Scrub replaces every secret in text with Redacted, in each form a server or registry may echo
// it back: verbatim, JSON-escaped (a GCP private key always holds "\n"; passwords may hold
// `" \ < > &`, which Go's encoder also escapes), percent-encoded (query and form bodies), base64
// (a basic-auth header is base64("user:password"), so the user-prefixed form is covered too), and
// each long line of a multi-line secret (a PEM key quoted line by line). Every place text leaves
// the provider (errors, details, build logs, diagnostics) goes through it.
func Scrub(text string, secrets ...Secret) string {
	for _, s := range secrets {
		for _, form := range secretForms(s.Reveal()) {
			text = strings.ReplaceAll(text, form, Redacted)
		}
	}
	return text
}

// secretForms lists the encodings of v to look for, longest first, so a longer form is replaced
// before a shorter one inside it could break it up.
func secretForms(v string) []string {
	if v == "" {
		return nil
	}
	forms := []string{v, jsonEscaped(v, false), jsonEscaped(v, true), url.QueryEscape(v), url.PathEscape(v),
		base64.StdEncoding.EncodeToString([]byte(v)), base64.RawStdEncoding.EncodeToString([]byte(v)),
		base64.URLEncoding.EncodeToString([]byte(v)), base64.RawURLEncoding.EncodeToString([]byte(v))}
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); len(line) >= minScrubbedPart {
			forms = append(forms, line)
		}
	}
	return longestFirst(forms)
}

// jsonEscaped is v as it appears inside a JSON string, with or without HTML escaping.
func jsonEscaped(v string, html bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(v) // a string always encodes
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

func longestFirst(forms []string) []string {
	seen := map[string]bool{}
	unique := forms[:0]
	for _, f := range forms {
		if f != "" && !seen[f] {
			seen[f] = true
			unique = append(unique, f)
		}
	}
	for i := 1; i < len(unique); i++ { // insertion sort: a handful of forms
		for j := i; j > 0 && len(unique[j]) > len(unique[j-1]); j-- {
			unique[j], unique[j-1] = unique[j-1], unique[j]
		}
	}
	return unique
}
