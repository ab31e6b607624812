package imagedigest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Resolver resolves tags. Login is required; a nil Transport means go-containerregistry's default.
type Resolver struct {
	Login     builders.RegistryLoginFunc
	Transport http.RoundTripper
}

// Resolve returns the digest (sha256:...) image's tag points at now: one HEAD of its manifest (an
// index's digest for a multi-platform image, as a pull by that digest would fetch). An image pinned
// by digest is returned as it is, with no request. Errors never contain the login's password.
func (r Resolver) Resolve(ctx context.Context, image string, auth builders.RegistryAuth) (string, error) {
	ref, err := name.ParseReference(image)
	if err != nil {
		return "", fmt.Errorf("parsing image %q: %w", image, err)
	}
	if d, ok := ref.(name.Digest); ok {
		return d.DigestStr(), nil
	}
	username, password, err := r.Login(ctx, image, auth)
	if err != nil {
		return "", err
	}
	authenticator := authn.Anonymous
	if username != "" {
		authenticator = authn.FromConfig(authn.AuthConfig{Username: username, Password: password.Reveal()})
	}
	options := []remote.Option{remote.WithContext(ctx), remote.WithAuth(authenticator)}
	if r.Transport != nil {
		options = append(options, remote.WithTransport(r.Transport))
	}
	desc, err := remote.Head(ref, options...)
	if err != nil {
		return "", errors.New(builders.Scrub(fmt.Sprintf("resolving %s: %v", image, err), password))
	}
	return desc.Digest.String(), nil
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
