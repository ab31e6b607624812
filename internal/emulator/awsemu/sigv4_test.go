package awsemu

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// signedECRCall sends a GetAuthorizationToken request signed by the AWS SDK's own signer for
// service, region and signing time at. beforeSigning changes the copy that is signed (not what is
// sent), afterSigning what is sent. It answers the error code and body (empty on success).
func signedECRCall(t *testing.T, e *Emulator, service, region string, at time.Time, beforeSigning, afterSigning func(*http.Request)) (code, body string) {
	t.Helper()
	payload := []byte(`{}`)
	sent, _ := http.NewRequest(http.MethodPost, e.URL+"/", bytes.NewReader(payload))
	sent.Header.Set("X-Amz-Target", ecrTargetPrefix+"GetAuthorizationToken")
	sent.Header.Set("Content-Type", "application/x-amz-json-1.1")
	signed := sent.Clone(t.Context())
	sum := sha256.Sum256(payload)
	payloadHash := hex.EncodeToString(sum[:])
	if beforeSigning != nil {
		beforeSigning(signed)
	}
	if claimed := signed.Header.Get("X-Amz-Content-Sha256"); claimed != "" {
		payloadHash = claimed
	}
	creds := aws.Credentials{AccessKeyID: testKeyID, SecretAccessKey: testSecret}
	if err := v4.NewSigner().SignHTTP(t.Context(), creds, signed, payloadHash, service, region, at); err != nil {
		t.Fatal(err)
	}
	sent.Header = signed.Header
	if afterSigning != nil {
		afterSigning(sent)
	}
	resp, err := http.DefaultClient.Do(sent)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		return "", ""
	}
	return resp.Header.Get("X-Amzn-ErrorType"), string(out)
}

// TestSigV4AsAWSChecksIt: what AWS refuses and accepts of requests signed by the AWS SDK's signer:
// only the headers the client signed count (content-length need not be one, host must), the scope
// names this endpoint's service and region, the signing time is within 15 minutes, and the payload
// hash is the body's, whatever x-amz-content-sha256 claims.
func TestSigV4AsAWSChecksIt(t *testing.T) {
	e := NewTestServer(t, Options{Region: "us-east-1"})
	e.SetCredentials(testKeyID, testSecret)
	now := time.Now()
	for _, tt := range []struct {
		name, service, region       string
		at                          time.Time
		beforeSigning, afterSigning func(*http.Request)
		code, message               string
	}{
		{name: "signed by the SDK", service: "ecr", region: "us-east-1", at: now},
		{name: "content-length sent, not signed", service: "ecr", region: "us-east-1", at: now,
			beforeSigning: func(r *http.Request) { r.ContentLength = 0 }},
		{name: "12 minutes slow", service: "ecr", region: "us-east-1", at: now.Add(-12 * time.Minute)},
		{name: "x-amz-content-sha256 of the body", service: "ecr", region: "us-east-1", at: now,
			beforeSigning: func(r *http.Request) { r.Header.Set("X-Amz-Content-Sha256", hexSHA256([]byte(`{}`))) }},
		{name: "another service", service: "bedrock-agentcore", region: "us-east-1", at: now,
			code: "InvalidSignatureException", message: "Credential should be scoped to correct service: 'ecr'. "},
		{name: "another region", service: "ecr", region: "eu-west-1", at: now,
			code: "InvalidSignatureException", message: "Credential should be scoped to a valid region, not 'eu-west-1'. "},
		{name: "20 minutes slow", service: "ecr", region: "us-east-1", at: now.Add(-20 * time.Minute),
			code: "InvalidSignatureException", message: "Signature expired: "},
		{name: "20 minutes fast", service: "ecr", region: "us-east-1", at: now.Add(20 * time.Minute),
			code: "InvalidSignatureException", message: "Signature not yet current: "},
		{name: "x-amz-content-sha256 of another body", service: "ecr", region: "us-east-1", at: now,
			beforeSigning: func(r *http.Request) { r.Header.Set("X-Amz-Content-Sha256", hexSHA256([]byte(`{"registryIds":[]}`))) },
			code:          "InvalidSignatureException", message: "The request signature we calculated does not match"},
		{name: "host not signed", service: "ecr", region: "us-east-1", at: now,
			afterSigning: func(r *http.Request) {
				r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), ";host", "", 1))
			},
			code: "IncompleteSignatureException", message: "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."},
	} {
		code, body := signedECRCall(t, e, tt.service, tt.region, tt.at, tt.beforeSigning, tt.afterSigning)
		if code != tt.code || !strings.Contains(body, tt.message) {
			t.Errorf("%s: %q %s, want %q %q", tt.name, code, body, tt.code, tt.message)
		}
	}
}
