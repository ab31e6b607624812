package apihttp

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// MaxRedirects bounds the redirects one request follows: Go's own default limit, which a
// caller's *http.Client may have lifted.
const MaxRedirects = 10

// RedirectError is a redirect a client would not follow: to another origin, or one too many. Go
// strips only Authorization and Cookie when a redirect leaves the host, so following it would send
// the API key header (and, on 307 and 308, the body with whatever it reveals) wherever the answer
// points. It keeps the caller's stage and is never retried: the same request meets the same answer.
type RedirectError struct {
	To      string // the target, without its userinfo, query or fragment, scrubbed of the secrets in play
	Origin  string // scheme://host:port of the request, which its credentials are for
	TooMany bool   // the target is on the origin, but the request had followed MaxRedirects already
}

func (e *RedirectError) Error() string {
	if e.TooMany {
		return fmt.Sprintf("stopped after %d redirects (the last to %s)", MaxRedirects, e.To)
	}
	return fmt.Sprintf("refused a redirect to %s: the API key and requests go only to %s, where the API is configured (if it has moved, configure its new address)", e.To, e.Origin)
}

// following is c.HTTP with this package's redirect policy, whichever client the caller gave: a
// shallow copy, so the caller's client is left as it was.
func (c *Client) following(secrets []builders.Secret) *http.Client {
	base := c.HTTP
	if base == nil {
		base = http.DefaultClient
	}
	hc := *base
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		origin, to := originOf(via[0].URL), originOf(req.URL)
		switch {
		case to != origin:
			return &RedirectError{To: redirectTarget(req.URL, secrets), Origin: origin}
		case len(via) >= MaxRedirects:
			return &RedirectError{To: redirectTarget(req.URL, secrets), Origin: origin, TooMany: true}
		}
		return nil
	}
	return &hc
}

// originOf is u's scheme://host:port, the port spelled out when it is the scheme's default.
func originOf(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// redirectTarget is what an error says of a target: a hostile Location may carry credentials in
// its userinfo or query, or echo a secret of the request in its path.
func redirectTarget(u *url.URL, secrets []builders.Secret) string {
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return builders.Scrub(shown.String(), secrets...)
}
