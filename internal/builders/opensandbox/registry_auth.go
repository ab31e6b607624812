package opensandbox

import (
	"context"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// imageAuthFor returns the image.auth to send: basic credentials as given; AWS and GCP exchanged
// through RegistryLogin. Errors are REGISTRY_AUTH (or TIMEOUT/CANCELLED) and carry no secret.
func (b *Builder) imageAuthFor(ctx context.Context, image string, auth builders.RegistryAuth) (*imageAuth, error) {
	switch auth := auth.(type) {
	case nil:
		return nil, nil
	case *builders.BasicAuth:
		return &imageAuth{Username: auth.Username, Password: auth.Password}, nil
	}
	kind := auth.Kind()
	if b.registryLogin == nil {
		return nil, builders.AtStage(builders.StageRegistryAuth, fmt.Errorf(
			"registry_auth.%s: OpenSandbox takes only a username and password, and no %s credential exchange is configured", kind, kind))
	}
	username, password, err := b.registryLogin(ctx, image, auth)
	if err != nil {
		if builders.StageOf(err, "") == builders.StageRegistryAuth {
			return nil, err
		}
		return nil, builders.AtStage(builders.StageRegistryAuth, fmt.Errorf("registry_auth.%s: login for %s: %w", kind, image, err))
	}
	if username == "" || password.IsEmpty() {
		return nil, builders.AtStage(builders.StageRegistryAuth, fmt.Errorf("registry_auth.%s: the login exchange returned no credentials", kind))
	}
	return &imageAuth{Username: username, Password: password}, nil
}
