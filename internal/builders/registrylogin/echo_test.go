package registrylogin

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
)

// A registry or proxy echoing the request may quote a secret JSON-escaped, percent-encoded or in
// base64: registryAuthError scrubs every form, not only the verbatim one.
func TestRegistryAuthErrorScrubsEveryEncoding(t *testing.T) {
	const secret = `pa"ss\word<&>/+= tail`
	for _, form := range buildertest.SecretForms(secret) {
		err := registryAuthError(errors.New("registry said: {\"password\":\""+form+"\"}"), builders.NewSecret(secret))
		buildertest.AssertStage(t, err, builders.StageRegistryAuth, "registry said")
		buildertest.AssertNoSecretForms(t, "error for form "+url.QueryEscape(form), err.Error(), secret)
	}
}

// ECR echoing the GetAuthorizationToken body in its error (on every retry of the SDK): the message
// is reported, no secret.
func TestECRLoginEchoedBodyHoldsNoSecret(t *testing.T) {
	isolateAWS(t)
	e := newECR(t)
	if err := e.InjectFault(awsemu.Fault{Count: 5, Status: 500, Operation: "GetAuthorizationToken", EchoBody: true}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Exchanger{AWSBaseEndpoint: e.URL}.Login(t.Context(), ecrImage, awsAuth(specKeyID, specSecret, "eu-west-1"))
	buildertest.AssertStage(t, err, builders.StageRegistryAuth, "request body")
	buildertest.AssertNoSecretForms(t, "the ECR error", err.Error(), specSecret)
}

// Google's token endpoint echoing the token request (the signed assertion) in error_description:
// the description is reported, neither the assertion nor any part of the key is.
func TestGCPLoginEchoedBodyHoldsNoKey(t *testing.T) {
	google := googleemu.NewTestServer(t)
	keyJSON := google.ServiceAccountJSON(t)
	if err := google.InjectFault(googleemu.Fault{Count: 1, Status: 400, Error: "invalid_grant", EchoBody: true}); err != nil {
		t.Fatal(err)
	}
	auth := &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(keyJSON)}
	_, _, err := Exchanger{}.Login(t.Context(), garImage, auth)
	buildertest.AssertStage(t, err, builders.StageRegistryAuth, "invalid_grant", "request body")
	if !strings.Contains(err.Error(), "assertion="+builders.Redacted) || strings.Contains(err.Error(), "assertion=eyJ") {
		t.Errorf("the echoed assertion (a bearer credential for an hour) must be redacted: %v", err)
	}
	privateKey := googleemu.KeyField(t, keyJSON, "private_key")
	buildertest.AssertNoSecretForms(t, "the token error", err.Error(), keyJSON, privateKey)
	for _, line := range strings.Split(privateKey, "\n") {
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") {
			buildertest.AssertNoSecretForms(t, "the token error", err.Error(), line)
		}
	}
}
