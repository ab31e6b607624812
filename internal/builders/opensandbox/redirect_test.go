package opensandbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// elsewhere is another origin that records what reaches it and refuses it (so a build that was
// redirected there ends at once).
type elsewhere struct {
	*httptest.Server
	mu   sync.Mutex
	sent []string
}

func newElsewhere(t *testing.T) *elsewhere {
	e := &elsewhere{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.sent = append(e.sent, r.Method+" "+r.URL.Path+" "+r.Header.Get(apiKeyHeader)+" "+r.Header.Get(execdTokenHeader)+" "+string(body))
		e.mu.Unlock()
		w.WriteHeader(http.StatusForbidden)
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *elsewhere) received() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.sent...)
}

// redirecting answers the requests matching match ("METHOD path") with a 307 to target, as a
// hostile or misconfigured server might, and passes the others on.
func redirecting(match, target string) http.RoundTripper {
	re := regexp.MustCompile(match)
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if !re.MatchString(r.Method + " " + r.URL.Path) {
			return http.DefaultTransport.RoundTrip(r)
		}
		return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {target}}, Body: http.NoBody, Request: r}, nil
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Neither the lifecycle API nor a sandbox's execd can send a request to another origin with a 307:
// the sandbox create (API key, registry password) and an execd command (endpoint token, the
// command) never reach it, and the build fails naming where the answer pointed.
func TestBuildFollowsNoRedirectToAnotherOrigin(t *testing.T) {
	const password, command = "registry-password-for-opensandbox-only", "echo the-command-stays-home"
	for name, match := range map[string]string{
		"lifecycle sandbox create": `^POST /v1/sandboxes$`,
		"execd command":            `^POST /execd/.*/command$`,
	} {
		t.Run(name, func(t *testing.T) {
			const image = "registry.example.com/team/ci:1"
			other := newElsewhere(t)
			emu := opensandboxemu.NewTestServer(t, opensandboxemu.Options{APIKey: testAPIKey,
				PrivateImages: map[string]opensandboxemu.ImageAuth{image: {Username: "robot", Password: password}}})
			b, err := New(Config{BaseURL: emu.LifecycleURL(), APIKey: builders.NewSecret(testAPIKey), PollInterval: time.Millisecond,
				HTTPClient: &http.Client{Transport: redirecting(match, other.URL+"/steal")}})
			if err != nil {
				t.Fatal(err)
			}
			s := spec("redirected")
			s.Image, s.StartCmd = image, ptr("")
			s.RegistryAuth = &builders.BasicAuth{Username: "robot", Password: builders.NewSecret(password)}
			s.Steps = []builders.BuildStep{{Run: &builders.RunStep{Command: command}}}

			_, err = b.Build(context.Background(), s, builders.Observer{})

			if got := other.received(); len(got) != 0 {
				t.Fatalf("the other origin was sent %q", got)
			}
			var refused *apihttp.RedirectError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), "refused a redirect to "+other.URL+"/steal") {
				t.Fatalf("Build error = %v, want the redirect refused, naming its target", err)
			}
			for _, secret := range []string{password, testAPIKey} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("Build error = %v shows %q", err, secret)
				}
			}
		})
	}
}
