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

// FuzzParseECRRegistry: a recognised ECR host always yields a 12-digit-or-other account and a region.
func FuzzParseECRRegistry(f *testing.F) {
	for _, seed := range []string{"123456789012.dkr.ecr.us-east-1.amazonaws.com/ds:1.4", "123.dkr.ecr-fips.us-gov-west-1.amazonaws.com/x",
		"x.dkr.ecr.cn-north-1.amazonaws.com.cn/y", "python:3.12", "ghcr.io/a/b", "", "dkr.ecr..amazonaws.com/x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if reg, ok := parseECRRegistry(image); ok && (reg.accountID == "" || reg.region == "") {
			t.Fatalf("parseECRRegistry(%q) = %+v: an ECR registry needs an account and a region", image, reg)
		}
	})
}
