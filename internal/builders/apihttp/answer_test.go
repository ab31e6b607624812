package apihttp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// endless serves status with body, then filler for ever: a server bent on exhausting the client.
func endless(t *testing.T, status int, body string) *url.URL {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
		filler := []byte(strings.Repeat("0,", 32<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(filler); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u
}

// Every answer is read through one bounded reader: a 2xx JSON answer, a stream and an error body
// alike stop at their limit, a 2xx one with an error naming the endpoint.
func TestAnswersAreBounded(t *testing.T) {
	c, _ := testClient(endless(t, http.StatusOK, "["), 1)
	var out []int
	err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/templates", Out: &out})
	if err == nil || err.Error() != "test: GET /templates: the answer is larger than 16 MiB: not one the Test API gives" {
		t.Errorf("an endless JSON answer: Do = %v", err)
	}

	var streamed int64
	err = c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/command", Read: func(r io.Reader) error {
		var err error
		streamed, err = io.Copy(io.Discard, r)
		return err
	}})
	if err == nil || !strings.HasPrefix(err.Error(), "test: POST /command: the answer is larger than 256 MiB") || streamed != MaxStreamBody {
		t.Errorf("an endless stream: Do = %v after %d bytes, want an error after %d", err, streamed, MaxStreamBody)
	}

	c, _ = testClient(endless(t, http.StatusBadRequest, `{"message":"bad"}`), 1)
	if e, ok := AsError(c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"})); !ok || e.StatusCode != http.StatusBadRequest {
		t.Errorf("an endless error answer: want the 400, got %v", e)
	}
}

// An answer of exactly the limit is read; the limit is on what is read, not on what is declared.
func TestAnswerAtTheLimit(t *testing.T) {
	value := strings.Repeat("a", MaxAnswerBody-2)
	_, base := newScripted(t, answer{body: `"` + value + `"`, header: http.Header{"Content-Type": {"application/json"}}})
	c, _ := testClient(base, 1)
	var out string
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x", Out: &out}); err != nil || len(out) != len(value) {
		t.Errorf("Do = %v, read %d bytes; want the %d-byte answer", err, len(out), len(value))
	}
}

// A 2xx answer to a JSON request is empty or JSON; anything else (an HTML page from a proxy or a
// captive portal) is a bad answer at once, never a success, and is not tried again.
func TestAnswerMustBeJSON(t *testing.T) {
	const page = "<!DOCTYPE html><html><body>Sign in to continue</body></html>"
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for _, tt := range []struct {
		name string
		a    answer
		out  bool
		want string // "" means accepted
	}{
		{"HTML to a build start", answer{status: http.StatusAccepted, body: page, header: html}, false, "the answer (HTTP 202) is text/html, not JSON: something other than the Test API answered"},
		{"unlabelled HTML", answer{body: page}, false, "the answer (HTTP 200) is text/html, not JSON"},
		{"HTML for a JSON answer", answer{body: page, header: html}, true, "the answer (HTTP 200) is text/html, not JSON"},
		{"plain text that is not JSON", answer{body: "OK"}, false, "the answer (HTTP 200) is not JSON"},
		{"XML", answer{body: "<ok/>", header: http.Header{"Content-Type": {"application/xml"}}}, false, "is application/xml, not JSON"},
		{"empty 202", answer{status: http.StatusAccepted}, false, ""},
		{"empty 204 labelled text", answer{status: http.StatusNoContent, header: http.Header{"Content-Type": {"text/plain"}}}, false, ""},
		{"JSON", answer{body: `{"id":"b1"}`, header: http.Header{"Content-Type": {"application/json"}}}, true, ""},
		{"JSON with a +json type", answer{body: `{"id":"b1"}`, header: http.Header{"Content-Type": {"application/problem+json"}}}, false, ""},
		{"unlabelled JSON", answer{body: `{"id":"b1"}`}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, base := newScripted(t, tt.a)
			c, _ := testClient(base, 3)
			r := Request{Method: http.MethodPost, Path: "/v2/templates/py/builds/b1", Retry: RetryAll}
			var out map[string]string
			if tt.out {
				r.Out = &out
			}
			err := c.Do(t.Context(), r)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Do = %v, want the answer accepted", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "test: POST /v2/templates/py/builds/b1: ") || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Do = %v, want an error naming the endpoint and saying %q", err, tt.want)
			case srv.count() != 1:
				t.Errorf("%d requests, want 1: a bad answer is not tried again", srv.count())
			}
		})
	}
}
