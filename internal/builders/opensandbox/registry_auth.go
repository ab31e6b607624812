package opensandbox

import (
	"context"
	"errors"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// imageAuthFor returns the image.auth to send: basic credentials as given; AWS and GCP exchanged
// through RegistryLogin. Errors are REGISTRY_AUTH (or TIMEOUT/CANCELLED) and carry no secret.
func (b *Builder) imageAuthFor(ctx context.Context, image string, auth *builders.RegistryAuth) (*imageAuth, error) {
	if auth == nil {
		return nil, nil
	}
	kind := auth.Kind()
	switch kind {
	case builders.RegistryAuthBasic:
		return &imageAuth{Username: auth.Basic.Username, Password: auth.Basic.Password}, nil
	case builders.RegistryAuthAWS, builders.RegistryAuthGCP:
	default:
		return nil, builders.AtStage(builders.StageRegistryAuth, errors.New("registry_auth: exactly one of basic, aws or gcp must be set"))
	}
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
