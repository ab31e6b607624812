package awsemu

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SigV4 as AWS checks it (Signature Version 4 signing process, docs.aws.amazon.com/IAM/latest/
// UserGuide/reference_sigv-create-signed-request.html): the server rebuilds the canonical request
// from exactly the headers the client lists in SignedHeaders (host must be one; any other, such as
// content-length, may or may not be) and the SHA-256 of the body it received, whatever an
// x-amz-content-sha256 header claims; the credential scope names the endpoint's service and region;
// the signing time is within 15 minutes of the server's clock.

// maxClockSkew is how far X-Amz-Date may be from AWS's clock.
const maxClockSkew = 15 * time.Minute

const amzDateFormat = "20060102T150405Z"

// sigV4Authorization is the parsed Authorization header of a SigV4-signed request.
type sigV4Authorization struct {
	accessKeyID   string
	date          string
	region        string
	service       string
	signedHeaders []string
	signature     string
}

func (a sigV4Authorization) scope() string {
	return strings.Join([]string{a.date, a.region, a.service, "aws4_request"}, "/")
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

// authenticate checks the request the way AWS does for an endpoint of service: a SigV4 header, a
// known access key id, a signing time within the skew allowed, a credential scope for this service
// and region, and a signature that the expected secret reproduces.
func (e *Emulator) authenticate(r *http.Request, body []byte, service string) (sigV4Authorization, *apiError) {
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
	if !slices.Contains(auth.signedHeaders, "host") {
		return auth, errIncompleteSignature("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.")
	}
	signedAt, err := time.Parse(amzDateFormat, r.Header.Get("X-Amz-Date"))
	if err != nil {
		return auth, errIncompleteSignature("Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.")
	}
	if auth.accessKeyID != expected.accessKeyID {
		return auth, errUnrecognizedClient()
	}
	if problem := skewProblem(signedAt, time.Now()); problem != "" {
		return auth, &apiError{status: http.StatusForbidden, code: "InvalidSignatureException", message: problem}
	}
	if problem := e.scopeProblem(auth, signedAt, service); problem != "" {
		return auth, &apiError{status: http.StatusForbidden, code: "InvalidSignatureException", message: problem}
	}
	if want := signature(r, body, auth, signedAt, expected.secret); subtle.ConstantTimeCompare([]byte(want), []byte(auth.signature)) != 1 {
		return auth, errInvalidSignature()
	}
	return auth, nil
}

// skewProblem is AWS's message for a signing time more than maxClockSkew from now.
func skewProblem(signedAt, now time.Time) string {
	format := func(t time.Time) string { return t.UTC().Format(amzDateFormat) }
	switch {
	case signedAt.Before(now.Add(-maxClockSkew)):
		return fmt.Sprintf("Signature expired: %s is now earlier than %s (%s - 15 min.)", format(signedAt), format(now.Add(-maxClockSkew)), format(now))
	case signedAt.After(now.Add(maxClockSkew)):
		return fmt.Sprintf("Signature not yet current: %s is still later than %s (%s + 15 min.)", format(signedAt), format(now.Add(maxClockSkew)), format(now))
	}
	return ""
}

// scopeProblem is AWS's message for a credential scope that is not this endpoint's: another date
// than the signing time's, another service, another region (when the emulator stands for one).
func (e *Emulator) scopeProblem(auth sigV4Authorization, signedAt time.Time, service string) string {
	switch date := signedAt.Format("20060102"); {
	case auth.date != date:
		return fmt.Sprintf("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '%s' != '%s', from '%s'.",
			auth.date, date, signedAt.Format(amzDateFormat))
	case auth.service != service:
		return fmt.Sprintf("Credential should be scoped to correct service: '%s'. ", service)
	case e.region != "" && auth.region != e.region:
		return fmt.Sprintf("Credential should be scoped to a valid region, not '%s'. ", auth.region)
	}
	return ""
}

// signature is the SigV4 signature of the request as received, over the headers it signed.
func signature(r *http.Request, body []byte, auth sigV4Authorization, signedAt time.Time, secret string) string {
	canonical := strings.Join([]string{
		r.Method,
		uriEncode(r.URL.EscapedPath(), false), // the path, encoded once more, as for every service but S3
		canonicalQuery(r.URL.Query()),
		canonicalHeaders(r, auth.signedHeaders),
		strings.Join(auth.signedHeaders, ";"),
		hexSHA256(body),
	}, "\n")
	toSign := strings.Join([]string{"AWS4-HMAC-SHA256", signedAt.Format(amzDateFormat), auth.scope(), hexSHA256([]byte(canonical))}, "\n")
	key := []byte("AWS4" + secret)
	for _, part := range []string{auth.date, auth.region, auth.service, "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	return hex.EncodeToString(hmacSHA256(key, toSign))
}

// canonicalHeaders lists each signed header as "name:value\n", values trimmed, runs of spaces
// collapsed and repeated headers joined with commas. Go keeps Host and Content-Length apart.
func canonicalHeaders(r *http.Request, signed []string) string {
	var b strings.Builder
	for _, name := range signed {
		values := r.Header.Values(name)
		switch {
		case name == "host":
			values = []string{r.Host}
		case name == "content-length" && len(values) == 0:
			values = []string{strconv.FormatInt(r.ContentLength, 10)}
		}
		trimmed := make([]string, len(values))
		for i, v := range values {
			trimmed[i] = strings.Join(strings.Fields(v), " ")
		}
		b.WriteString(name + ":" + strings.Join(trimmed, ",") + "\n")
	}
	return b.String()
}

// canonicalQuery sorts the parameters by name, then value, each URI-encoded.
func canonicalQuery(query url.Values) string {
	var pairs []string
	for name, values := range query {
		for _, v := range values {
			pairs = append(pairs, uriEncode(name, true)+"="+uriEncode(v, true))
		}
	}
	slices.Sort(pairs)
	return strings.Join(pairs, "&")
}

// uriEncode is SigV4's UriEncode: every byte but A-Z a-z 0-9 - _ . ~ (and "/" in a path) as %XX.
func uriEncode(s string, encodeSlash bool) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', strings.IndexByte("-_.~", c) >= 0, c == '/' && !encodeSlash:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func hexSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hmacSHA256(key []byte, data string) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(data))
	return mac.Sum(nil)
}
