package awsemu

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// sigV4Authorization is the parsed Authorization header of a SigV4-signed request.
type sigV4Authorization struct {
	accessKeyID   string
	date          string
	region        string
	service       string
	signedHeaders []string
	signature     string
}

// parseSigV4 reads "AWS4-HMAC-SHA256 Credential=AKID/20240101/us-east-1/ecr/aws4_request,
// SignedHeaders=host;x-amz-date, Signature=hex".
func parseSigV4(header string) (sigV4Authorization, bool) {
	rest, ok := strings.CutPrefix(header, "AWS4-HMAC-SHA256 ")
	if !ok {
		return sigV4Authorization{}, false
	}
	var auth sigV4Authorization
	for _, part := range strings.Split(rest, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch key {
		case "Credential":
			scope := strings.Split(value, "/")
			if len(scope) != 5 || scope[4] != "aws4_request" {
				return sigV4Authorization{}, false
			}
			auth.accessKeyID, auth.date, auth.region, auth.service = scope[0], scope[1], scope[2], scope[3]
		case "SignedHeaders":
			auth.signedHeaders = strings.Split(value, ";")
		case "Signature":
			auth.signature = value
		}
	}
	return auth, auth.accessKeyID != "" && auth.signature != "" && len(auth.signedHeaders) > 0
}

// authenticate checks the request the way AWS does: a SigV4 header, a known access key id, and a
// signature that the expected secret reproduces.
func (e *Emulator) authenticate(r *http.Request, body []byte) (sigV4Authorization, *apiError) {
	auth, ok := parseSigV4(r.Header.Get("Authorization"))
	if !ok {
		return auth, errMissingAuthentication()
	}
	e.mu.Lock()
	expected := e.credentials
	e.mu.Unlock()
	if expected == nil {
		return auth, nil
	}
	if auth.accessKeyID != expected.accessKeyID {
		return auth, errUnrecognizedClient()
	}
	if !signatureMatches(r, body, auth, expected.secret) {
		return auth, errInvalidSignature()
	}
	return auth, nil
}

// signatureMatches re-signs a copy of the request holding only the headers the client signed and
// compares the signatures.
func signatureMatches(r *http.Request, body []byte, auth sigV4Authorization, secret string) bool {
	signingTime, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return false
	}
	replay, err := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	if err != nil {
		return false
	}
	replay.ContentLength = r.ContentLength
	for _, name := range auth.signedHeaders {
		if name == "host" || name == "content-length" {
			continue // the signer takes these from the request itself
		}
		for _, value := range r.Header.Values(name) {
			replay.Header.Add(name, value)
		}
	}
	payloadHash := r.Header.Get("X-Amz-Content-Sha256")
	if payloadHash == "" {
		sum := sha256.Sum256(body)
		payloadHash = hex.EncodeToString(sum[:])
	}
	creds := aws.Credentials{AccessKeyID: auth.accessKeyID, SecretAccessKey: secret, SessionToken: r.Header.Get("X-Amz-Security-Token")}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, replay, payloadHash, auth.service, auth.region, signingTime); err != nil {
		return false
	}
	want, ok := parseSigV4(replay.Header.Get("Authorization"))
	return ok && subtle.ConstantTimeCompare([]byte(want.signature), []byte(auth.signature)) == 1
}
