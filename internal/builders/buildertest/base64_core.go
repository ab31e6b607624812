package buildertest

import (
	"encoding/base64"
	"strings"
	"testing"
)

// AssertNoBase64Of fails the test when text holds what is left of part, a substring of body, in
// base64 of body (standard or URL alphabet): the characters part's bytes alone decide. A server
// quoting a request body in base64 (a debugging proxy) shows a password that way.
func AssertNoBase64Of(t testing.TB, where, text, body, part string) {
	t.Helper()
	at := strings.Index(body, part)
	if at < 0 {
		t.Fatalf("%q is not in the body %q", part, body)
	}
	first, last := (8*at+5)/6, 8*(at+len(part))/6
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		if core := enc.EncodeToString([]byte(body))[first:last]; len(core) >= 4 && strings.Contains(text, core) {
			t.Errorf("%s holds %q in base64 (%q…)", where, part, core[:4])
		}
	}
}
