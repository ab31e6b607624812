package e2b

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

const testAPIKey = "e2b_test_key_0123456789abcdef"

// newEmulator starts an E2B emulator that accepts only testAPIKey.
func newEmulator(t *testing.T) *e2bemu.Server {
	return e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testAPIKey})
}

// newTestBuilder returns a Builder on emu with tiny poll and retry delays. edit may change the
// Config first (another key, an HTTP client).
func newTestBuilder(t *testing.T, emu *e2bemu.Server, edit ...func(*Config)) *Builder {
	t.Helper()
	cfg := Config{APIKey: builders.NewSecret(testAPIKey), APIURL: emu.URL, PollInterval: time.Millisecond, MaxPollInterval: 5 * time.Millisecond}
	for _, e := range edit {
		e(&cfg)
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b.api.Retry.BaseDelay = time.Millisecond
	return b
}

// recordWaits makes b's retry backoff record its delays instead of sleeping them.
func recordWaits(b *Builder) func() []time.Duration {
	var mu sync.Mutex
	var waits []time.Duration
	b.api.Wait = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		waits = append(waits, d)
		return ctx.Err()
	}
	return func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), waits...)
	}
}

func mustBuild(t *testing.T, b *Builder, spec builders.TemplateSpec) builders.TemplateBuildResult {
	t.Helper()
	result, err := b.Build(t.Context(), spec, builders.Observer{})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if result.Status != builders.StatusSuccess || result.TemplateRef == nil ||
		*result.TemplateRef != (builders.TemplateRef{Provider: Name, Value: spec.TemplateID}) {
		t.Fatalf("Build = %+v, want SUCCESS with ref e2b/%s", result, spec.TemplateID)
	}
	return result
}

// onlyStart returns the one build start the emulator received.
func onlyStart(t *testing.T, emu *e2bemu.Server) e2bemu.BuildStart {
	t.Helper()
	starts := emu.BuildStarts()
	if len(starts) != 1 {
		t.Fatalf("%d build starts, want exactly 1", len(starts))
	}
	return starts[0]
}

func countLines(lines []string, substr string) int {
	n := 0
	for _, l := range lines {
		if strings.Contains(l, substr) {
			n++
		}
	}
	return n
}

func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}

// assertNoSecrets fails if any secret value appears in text.
func assertNoSecrets(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("a secret value leaked into %q", text)
		}
	}
}

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// fromBaseTemplate and fromDockerfile are specs with the deprecated sources this package still builds.
func fromBaseTemplate(id, base string) builders.TemplateSpec {
	return builders.TemplateSpec{TemplateID: id, BaseTemplate: base} //nolint:staticcheck // testing the deprecated source
}

func fromDockerfile(id, content string) builders.TemplateSpec {
	return builders.TemplateSpec{TemplateID: id, Dockerfile: content} //nolint:staticcheck // testing the deprecated source
}

func ptr(s string) *string { return &s }

// ciImage is E2B's code-interpreter image on Docker Hub: the only kind of image the default start
// command runs on (defaults.go), as the emulator's image catalogue knows.
const ciImage = "e2bdev/code-interpreter:latest"

// answerWith answers every request whose path ends with suffix with a 200 carrying body, as a
// broken proxy or server would, and passes the others to next.
func answerWith(next http.RoundTripper, suffix, body string) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if !strings.HasSuffix(r.URL.Path, suffix) {
			return next.RoundTrip(r)
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
}
