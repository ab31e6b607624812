package registrylogin

import (
	"encoding/base64"
	"strings"
	"testing"
)

// FuzzDecodeECRToken: any token is either a complete user:password login or an error that never
// quotes the token.
func FuzzDecodeECRToken(f *testing.F) {
	for _, seed := range []string{"AWS:pw", "AWS:", ":pw", "nocolon", "AWS:pw:with:colons", ""} {
		f.Add(base64.StdEncoding.EncodeToString([]byte(seed)))
	}
	f.Add("!!not base64!!")
	f.Fuzz(func(t *testing.T, token string) {
		user, password, err := decodeECRToken(token)
		if err != nil {
			if len(token) > 6 && strings.Contains(err.Error(), token) {
				t.Fatalf("the error quotes the token: %v", err)
			}
			return
		}
		if user == "" || password.IsEmpty() {
			t.Fatalf("decodeECRToken(%q) succeeded with an empty user or password", token)
		}
	})
}
