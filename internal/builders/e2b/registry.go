package e2b

import (
	"encoding/json"

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

func registryFor(auth builders.RegistryAuth) (registryCredentials, error) {
	switch auth := auth.(type) {
	case *builders.BasicAuth:
		return registryCredentials{
			body:    &fromImageRegistry{Type: registryGeneral, Username: auth.Username, Password: auth.Password},
			secrets: []builders.Secret{auth.Password},
		}, nil
	case *builders.AWSAuth:
		return registryCredentials{
			body: &fromImageRegistry{Type: registryAWS, AWSAccessKeyID: auth.AccessKeyID,
				AWSSecretAccessKey: auth.SecretAccessKey, AWSRegion: auth.Region},
			secrets: []builders.Secret{auth.SecretAccessKey},
		}, nil
	case *builders.GCPAuth:
		key, err := auth.Resolved()
		if err != nil {
			return registryCredentials{}, err
		}
		return registryCredentials{
			body:    &fromImageRegistry{Type: registryGCP, ServiceAccountJSON: key},
			secrets: []builders.Secret{key, privateKeyOf(key)},
		}, nil
	}
	return registryCredentials{}, nil // a public image
}

// privateKeyOf is the key's private_key, scrubbed on its own too: an echo may quote just that.
func privateKeyOf(key builders.Secret) builders.Secret {
	var fields struct {
		PrivateKey string `json:"private_key"`
	}
	_ = json.Unmarshal([]byte(key.Reveal()), &fields)
	return builders.NewSecret(fields.PrivateKey)
}
