package registrylogin

import (
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// maxTokenRequest bounds how much of a token request is read to find its assertion.
const maxTokenRequest = 64 << 10

// assertionRecorder keeps the signed JWT assertion of each token request the oauth2 library
// sends: a bearer credential for about an hour, which a token endpoint echoing the request quotes.
// Errors are scrubbed of it too.
type assertionRecorder struct {
	next http.RoundTripper

	mu   sync.Mutex
	seen []builders.Secret
}

// recordingClient is base (nil: http.DefaultClient) with its transport wrapped by a recorder.
func recordingClient(base *http.Client) (*http.Client, *assertionRecorder) {
	if base == nil {
		base = http.DefaultClient
	}
	client := *base
	next := client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	recorder := &assertionRecorder{next: next}
	client.Transport = recorder
	return &client, recorder
}

func (a *assertionRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.GetBody != nil {
		if body, err := r.GetBody(); err == nil {
			content, _ := io.ReadAll(io.LimitReader(body, maxTokenRequest))
			_ = body.Close()
			if form, err := url.ParseQuery(string(content)); err == nil && form.Get("assertion") != "" {
				a.mu.Lock()
				a.seen = append(a.seen, builders.NewSecret(form.Get("assertion")))
				a.mu.Unlock()
			}
		}
	}
	return a.next.RoundTrip(r)
}

// assertions are the assertions sent so far.
func (a *assertionRecorder) assertions() []builders.Secret {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]builders.Secret(nil), a.seen...)
}
