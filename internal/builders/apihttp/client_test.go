package apihttp

import (
	"io"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Every request carries the User-Agent, the API key (when there is one), the client's headers and
// the JSON body and query it was given.
func TestRequestHeadersAndBody(t *testing.T) {
	srv, base := newScripted(t, answer{body: `{"id":"s1"}`})
	c, _ := testClient(base, 1)
	c.UserAgent, c.APIKeyHeader, c.APIKey = "terraform-provider-sandbox/1.2.3", "X-Key", builders.NewSecret("k1")
	c.Header = map[string]string{"X-Route": "sbx-1"}
	var out struct{ ID string }
	err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/sandboxes", Query: map[string][]string{"a": {"b c"}},
		In: map[string]int{"n": 1}, Out: &out})
	if err != nil || out.ID != "s1" {
		t.Fatalf("Do = %v, %+v", err, out)
	}
	r := srv.first()
	for header, want := range map[string]string{"User-Agent": "terraform-provider-sandbox/1.2.3", "X-Key": "k1", "X-Route": "sbx-1",
		"Accept": "application/json", "Content-Type": "application/json"} {
		if got := r.Header.Get(header); got != want {
			t.Errorf("%s = %q, want %q", header, got, want)
		}
	}
	if r.URL.Path != "/v1/sandboxes" || r.URL.RawQuery != "a=b+c" {
		t.Errorf("URL = %s, want /v1/sandboxes?a=b+c", r.URL)
	}
}

func TestDefaultUserAgentAndNoEmptyKey(t *testing.T) {
	srv, base := newScripted(t, answer{})
	c, _ := testClient(base, 1)
	c.APIKeyHeader = "X-Key"
	if err := c.Do(t.Context(), Request{Method: http.MethodDelete, Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	r := srv.first()
	if r.Header.Get("User-Agent") != DefaultUserAgent || r.Header.Values("X-Key") != nil || r.Header.Get("Content-Type") != "" {
		t.Errorf("headers = %v, want the default User-Agent, no key and no body", r.Header)
	}
}

// Read takes a 2xx answer as a stream, with no JSON Accept header; its errors are its own.
func TestReadStreamsTheAnswer(t *testing.T) {
	srv, base := newScripted(t, answer{body: "line 1\nline 2\n"})
	c, _ := testClient(base, 1)
	var got string
	err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/command", In: map[string]string{"c": "ls"},
		Read: func(r io.Reader) error {
			b, err := io.ReadAll(r)
			got = string(b)
			return err
		}})
	if err != nil || got != "line 1\nline 2\n" || srv.first().Header.Get("Accept") != "" {
		t.Errorf("Do = %v, read %q, Accept %q", err, got, srv.first().Header.Get("Accept"))
	}
	streamErr := io.ErrUnexpectedEOF
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x", Read: func(io.Reader) error { return streamErr }}); err != streamErr {
		t.Errorf("Do = %v, want the reader's own error", err)
	}
}

func TestUndecodableAnswersAndBodies(t *testing.T) {
	_, base := newScripted(t, answer{body: "not json"})
	c, _ := testClient(base, 1)
	var out struct{}
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x", Out: &out}); err == nil ||
		!strings.HasPrefix(err.Error(), "test: GET /x: decoding the answer: ") {
		t.Errorf("Do = %v, want a decoding error naming the request", err)
	}
	if err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/x", In: math.Inf(1)}); err == nil ||
		!strings.HasPrefix(err.Error(), "test: encoding POST /x: ") {
		t.Errorf("Do = %v, want an encoding error", err)
	}
}
