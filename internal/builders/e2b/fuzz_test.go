package e2b

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

const fuzzKey = "FUZZ-API-KEY-MARKER"

// FuzzDecodeBuildStatus feeds any status code and body to the client's decoding of a build
// status answer and, for a failed build, to the failure report: nothing panics, and the API key
// the server might echo back never reaches an error.
func FuzzDecodeBuildStatus(f *testing.F) {
	for _, seed := range []struct {
		status int
		body   string
	}{
		{200, `{"templateID":"t","buildID":"b","status":"ready","logs":[],"logEntries":[]}`},
		{200, `{"status":"error","reason":{"message":"access denied to 'r.test/x:1': authentication required or insufficient permissions","step":"1","logEntries":[{"message":"x","level":"error","timestamp":"2026-01-01T00:00:00Z"}]}}`},
		{200, `{"status":"error","reason":null}`},
		{200, `{"status":"building","logEntries":[{"message":"` + strings.Repeat("a", 300) + `"}]}`},
		{200, `{"status":5}`},
		{200, `[]`},
		{401, `{"code":401,"message":"bad key ` + fuzzKey + `"}`},
		{500, `not json`},
		{404, ``},
		{429, `{"code":"x"}`},
	} {
		f.Add(seed.status, []byte(seed.body))
	}
	var status int
	var body []byte
	answer := roundTripFunc(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(body))}, nil
	})
	c := newClient(&url.URL{Scheme: "http", Host: "e2b.invalid"}, Config{APIKey: builders.NewSecret(fuzzKey), HTTPClient: &http.Client{Transport: answer}})
	c.Retry.MaxAttempts = 1 // one answer, decoded
	b := &Builder{}
	f.Fuzz(func(t *testing.T, fuzzStatus int, fuzzBody []byte) {
		if fuzzStatus < 100 || fuzzStatus > 999 {
			return
		}
		status, body = fuzzStatus, fuzzBody
		info, err := c.buildStatus(t.Context(), "t", "b", 0)
		if err == nil && info.Status == "error" {
			err = b.buildFailed(info, &buildLog{builders.BuildLog{Secrets: []builders.Secret{c.APIKey}}}, failureHints{})
		}
		if err != nil && strings.Contains(err.Error(), fuzzKey) {
			t.Fatalf("the API key leaked into an error: %v", err)
		}
	})
}

// FuzzParseDockerfile: any content is either a build with a base image or an error.
func FuzzParseDockerfile(f *testing.F) {
	for _, seed := range []string{"FROM python:3.12\nRUN pip install x\nCMD run", "RUN x", "FROM", "FROM a\nCOPY . /", "FROM a \\\n  b\n# c", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		parsed, err := parseDockerfile(content)
		if err == nil && parsed.image == "" {
			t.Fatalf("parseDockerfile(%q) succeeded without a base image", content)
		}
	})
}
