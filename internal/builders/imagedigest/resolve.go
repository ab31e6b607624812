package imagedigest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Resolver resolves tags. Login is required. Transport carries the requests (nil: NewTransport());
// every request passes route first, which decides where credentials may go, and a check follows
// at most maxRedirects redirects.
type Resolver struct {
	Login     builders.RegistryLoginFunc
	Transport http.RoundTripper
}

// Resolve returns the digest (sha256:...) image's tag points at now: one HEAD of its manifest (an
// index's digest for a multi-platform image, as a pull by that digest would fetch), after the
// registry's /v2/ challenge and, when it names one, a token request. An image pinned by digest is
// returned as it is, with no request. ctx bounds it all. Errors say what the registry answered
// (status and error codes) but never quote its body, and never contain the login's password.
func (r Resolver) Resolve(ctx context.Context, image string, auth builders.RegistryAuth) (string, error) {
	ref, err := name.ParseReference(image)
	if err != nil {
		return "", fmt.Errorf("parsing image %q: %w", image, err)
	}
	if d, ok := ref.(name.Digest); ok {
		return d.DigestStr(), nil
	}
	registry := ref.Context().RegistryStr()
	if ip := net.ParseIP((&url.URL{Host: registry}).Hostname()); ip != nil && isLinkLocal(ip) {
		return "", fmt.Errorf("resolving %s: not contacting %s: a link-local address (such as a cloud's metadata service) is no registry", image, registry)
	}
	next := r.Transport
	if next == nil {
		next = NewTransport()
	}
	rt := &route{next: next, registry: registry}
	login := authn.Anonymous
	lazy := &lazyLogin{image: image, auth: auth, login: r.Login, route: rt}
	if auth != nil {
		rt.kind, login = auth.Kind(), lazy
	}
	desc, err := remote.Head(ref, remote.WithContext(ctx), remote.WithAuth(login), remote.WithTransport(&redirectBudget{next: rt}))
	if err != nil {
		return "", builders.ScrubError(failure(image, registry, err), lazy.secret())
	}
	return desc.Digest.String(), nil
}

// failure says why resolving image failed in words of its own: a registry's answer is described
// by its status and error codes, since its body is the server's text (a 30 KB HTML page, or
// anything it echoes).
func failure(image, registry string, err error) error {
	var staged *builders.StageError
	var refused *refusedError
	var answer *transport.Error
	switch {
	case errors.As(err, &staged):
		return staged // the login's own (REGISTRY_AUTH), already scrubbed
	case errors.As(err, &refused):
		return fmt.Errorf("resolving %s: %w", image, refused)
	case errors.As(err, &answer):
		return fmt.Errorf("resolving %s: %s answered HTTP %d%s", image, requestOf(answer, registry), answer.StatusCode, errorCodes(answer))
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("resolving %s: %s did not answer in time: %w", image, registry, context.DeadlineExceeded)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err // a transport error: the URL is said once, below
	}
	return fmt.Errorf("resolving %s: reaching %s: %w", image, registry, err)
}

func requestOf(answer *transport.Error, registry string) string {
	if answer.Request == nil {
		return registry
	}
	u := *answer.Request.URL
	u.RawQuery = ""
	return answer.Request.Method + " " + u.Redacted()
}

// errorCode is the shape of a registry error code (MANIFEST_UNKNOWN, UNAUTHORIZED, DENIED).
var errorCode = regexp.MustCompile(`^[A-Z][A-Z_]{0,39}$`)

// errorCodes lists the registry's error codes, the one part of its body worth repeating: the
// distribution spec's fixed words, never its free-text message or detail.
func errorCodes(answer *transport.Error) string {
	var codes []string
	for _, d := range answer.Errors {
		if code := string(d.Code); errorCode.MatchString(code) && !slices.Contains(codes, code) {
			codes = append(codes, code)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return " " + strings.Join(codes, ", ")
}

// lazyLogin logs in the first time go-containerregistry wants credentials, and only once the
// registry has asked for them: an ECR or Google token is minted for a registry that needs it,
// never for one that serves the image to anyone.
type lazyLogin struct {
	image string
	auth  builders.RegistryAuth
	login builders.RegistryLoginFunc
	route *route

	mu       sync.Mutex
	done     bool
	username string
	password builders.Secret
	err      error
}

func (l *lazyLogin) Authorization() (*authn.AuthConfig, error) {
	return l.AuthorizationContext(context.Background())
}

func (l *lazyLogin) AuthorizationContext(ctx context.Context) (*authn.AuthConfig, error) {
	if !l.route.wasChallenged() {
		return &authn.AuthConfig{}, nil // no header: the registry asked for nothing
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.done = true
		l.username, l.password, l.err = l.login(ctx, l.image, l.auth)
	}
	return &authn.AuthConfig{Username: l.username, Password: l.password.Reveal()}, l.err
}

// secret is the password the login produced, if any, to scrub errors of.
func (l *lazyLogin) secret() builders.Secret {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.password
}

// Pinned tells whether image names a digest (repo@sha256:...): it can never move.
func Pinned(image string) bool {
	return strings.Contains(image, "@")
}

// WithDigest is image pinned to digest, what a build pulls so that the image planned is the one
// built: the tag is dropped, since a registry resolves repo:tag@digest by the digest alone anyway.
func WithDigest(image, digest string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		image = image[:i] // a tag; a colon before the last slash is a registry's port
	}
	return image + "@" + digest
}
