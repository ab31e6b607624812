package e2b

import (
	"encoding/json"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Registry types of FromImageRegistry's discriminator.
const (
	registryGeneral = "registry"
	registryAWS     = "aws"
	registryGCP     = "gcp"
)

// registryCredentials is the fromImageRegistry of a build and the secret values it carries.
// E2B exchanges AWS and GCP credentials for a registry login itself, so all three kinds are
// sent as given.
type registryCredentials struct {
	body    *fromImageRegistry
	secrets []builders.Secret
}

func registryFor(auth *builders.RegistryAuth) (registryCredentials, error) {
	switch {
	case auth == nil:
		return registryCredentials{}, nil
	case auth.Basic != nil:
		return registryCredentials{
			body:    &fromImageRegistry{Type: registryGeneral, Username: auth.Basic.Username, Password: auth.Basic.Password},
			secrets: []builders.Secret{auth.Basic.Password},
		}, nil
	case auth.AWS != nil:
		return registryCredentials{
			body: &fromImageRegistry{Type: registryAWS, AWSAccessKeyID: auth.AWS.AccessKeyID,
				AWSSecretAccessKey: auth.AWS.SecretAccessKey, AWSRegion: auth.AWS.Region},
			secrets: []builders.Secret{auth.AWS.SecretAccessKey},
		}, nil
	case auth.GCP != nil:
		key, err := auth.GCP.Resolved()
		if err != nil {
			return registryCredentials{}, err
		}
		return registryCredentials{
			body:    &fromImageRegistry{Type: registryGCP, ServiceAccountJSON: key},
			secrets: []builders.Secret{key, privateKeyOf(key)},
		}, nil
	}
	return registryCredentials{}, fmt.Errorf("registry_auth: %w", auth.Validate())
}

// privateKeyOf is the key's private_key, scrubbed on its own too: an echo may quote just that.
func privateKeyOf(key builders.Secret) builders.Secret {
	var fields struct {
		PrivateKey string `json:"private_key"`
	}
	_ = json.Unmarshal([]byte(key.Reveal()), &fields)
	return builders.NewSecret(fields.PrivateKey)
}
