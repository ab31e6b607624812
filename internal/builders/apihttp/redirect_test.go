package apihttp

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// recorder is a server that answers every request with handle and keeps what it was sent.
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // "METHOD path key=<API key header> body=<body>"
}

func newRecorder(t *testing.T, handle http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.requests = append(rec.requests, fmt.Sprintf("%s %s key=%s body=%s", r.Method, r.URL.Path, r.Header.Get("X-Key"), body))
		rec.mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...)
}

func (r *recorder) base(t *testing.T) *url.URL {
	u, err := url.Parse(r.URL + "/v1")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

const (
	redirectKey      = "api-key-never-elsewhere-0123"
	redirectPassword = "registry-password-in-the-body"
)

// A hostile or misconfigured API that redirects to another origin (another port of the same host,
// the same port under another name, or another scheme) gets its request refused before anything
// is sent there: the API key and the body never leave the configured origin, whatever the redirect
// status, whatever CheckRedirect the caller's client has, and the refusal is not retried. The error
// names the target, without the userinfo and query a Location may carry, and keeps the caller's
// stage.
func TestNoRedirectLeavesTheOrigin(t *testing.T) {
	elsewhere := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {})
	elsewhereURL, _ := url.Parse(elsewhere.URL)
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for name, target := range map[string]func(api *url.URL) string{
			"another port": func(*url.URL) string {
				return "http://user:pass@" + elsewhereURL.Host + "/steal/" + redirectKey + "?token=query-secret"
			},
			"another name":   func(api *url.URL) string { return "http://localhost:" + api.Port() + "/v1/x" },
			"another scheme": func(api *url.URL) string { return "https://" + api.Host + "/v1/x" },
		} {
			t.Run(fmt.Sprintf("%d to %s", status, name), func(t *testing.T) {
				var to string
				api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, status) })
				to = target(api.base(t))
				c, _ := testClient(api.base(t), 3)
				c.APIKeyHeader, c.APIKey = "X-Key", builders.NewSecret(redirectKey)
				permissive := func(*http.Request, []*http.Request) error { return nil }
				c.HTTP = &http.Client{CheckRedirect: permissive}

				err := c.Do(t.Context(), Request{Method: http.MethodPut, Path: "/x", In: map[string]string{"password": redirectPassword},
					Retry: RetryAll, Secrets: []builders.Secret{builders.NewSecret(redirectPassword)}})

				if got := elsewhere.seen(); len(got) != 0 {
					t.Fatalf("the other origin was sent %q", got)
				}
				if got := api.seen(); len(got) != 1 {
					t.Errorf("the API saw %q, want the one request, not retried", got)
				}
				var refused *RedirectError
				if !errors.As(err, &refused) || refused.TooMany {
					t.Fatalf("err = %v, want a refused redirect", err)
				}
				staged := builders.AtStage(builders.StageTemplateCreate, err)
				if builders.StageOf(staged, "") != builders.StageTemplateCreate || StatusOf(err) != 0 {
					t.Errorf("the refusal is at %s with status %d, want the caller's stage and no status", builders.StageOf(staged, ""), StatusOf(err))
				}
				shown, _ := url.Parse(to)
				shown.User, shown.RawQuery = nil, ""
				want := strings.ReplaceAll(shown.String(), redirectKey, builders.Redacted)
				if !strings.Contains(err.Error(), "refused a redirect to "+want+": ") {
					t.Errorf("err = %v, want it to name the target %s", err, want)
				}
				for _, secret := range []string{"pass", "query-secret", redirectKey, redirectPassword} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("err = %v shows %q", err, secret)
					}
				}
				if reflect.ValueOf(c.HTTP.CheckRedirect).Pointer() != reflect.ValueOf(permissive).Pointer() {
					t.Error("Do changed the caller's client")
				}
			})
		}
	}
}

// A redirect on the API's own origin is followed with the key and (307) the body, as Go does, up
// to MaxRedirects; a loop stops there, after MaxRedirects requests, whatever the caller's client
// allows.
func TestRedirectsOnTheOriginAreBounded(t *testing.T) {
	hops := func(n int) *recorder {
		return newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			var i int
			_, _ = fmt.Sscanf(r.URL.Path, "/v1/hop/%d", &i)
			if n < 0 || i < n {
				http.Redirect(w, r, fmt.Sprintf("/v1/hop/%d", i+1), http.StatusTemporaryRedirect)
				return
			}
			_, _ = w.Write([]byte(`{"ok":true}`))
		})
	}
	do := func(api *recorder) error {
		c, _ := testClient(api.base(t), 3)
		c.APIKeyHeader, c.APIKey = "X-Key", builders.NewSecret(redirectKey)
		c.HTTP = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}
		return c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/hop/0", In: map[string]string{"p": redirectPassword}, Retry: RetryAll})
	}

	followed := hops(MaxRedirects - 1)
	if err := do(followed); err != nil {
		t.Fatalf("%d redirects on the origin: %v", MaxRedirects-1, err)
	}
	got := followed.seen()
	if last := got[len(got)-1]; len(got) != MaxRedirects || last != fmt.Sprintf("POST /v1/hop/%d key=%s body={\"p\":%q}", MaxRedirects-1, redirectKey, redirectPassword) {
		t.Errorf("requests %q, want %d ending with the key and body at the last hop", got, MaxRedirects)
	}

	loop := hops(-1)
	err := do(loop)
	var refused *RedirectError
	if !errors.As(err, &refused) || !refused.TooMany || !strings.Contains(err.Error(), fmt.Sprintf("stopped after %d redirects (the last to %s/v1/hop/%d)", MaxRedirects, loop.URL, MaxRedirects)) {
		t.Errorf("err = %v, want it stopped after %d redirects", err, MaxRedirects)
	}
	if n := len(loop.seen()); n != MaxRedirects {
		t.Errorf("a redirect loop sent %d requests, want %d and no retry", n, MaxRedirects)
	}
}

func TestOriginOf(t *testing.T) {
	for raw, want := range map[string]string{
		"https://API.example.com/x":      "https://api.example.com:443",
		"https://api.example.com:443/y":  "https://api.example.com:443",
		"HTTP://api.example.com":         "http://api.example.com:80",
		"http://api.example.com:8080":    "http://api.example.com:8080",
		"http://u:p@[::1]:3000/z?q=1":    "http://[::1]:3000",
		"https://api.example.com.:443/x": "https://api.example.com.:443", // another name, as Go's client treats it
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := originOf(u); got != want {
			t.Errorf("originOf(%s) = %s, want %s", raw, got, want)
		}
	}
}
