package registrylogin

import (
	"context"
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Exchanger performs the credential exchanges. The zero value talks to the real AWS and Google
// endpoints with default HTTP clients.
type Exchanger struct {
	// AWSBaseEndpoint overrides the ECR endpoint. Without it the SDK's own resolution applies:
	// AWS_ENDPOINT_URL_ECR, then AWS_ENDPOINT_URL, then the shared config, then the regional default.
	AWSBaseEndpoint string
	// HTTPClient is used for ECR and for Google's token endpoint; nil means the libraries' defaults.
	HTTPClient *http.Client
}

// Login returns the basic login for pulling image with auth. A nil auth means an anonymous pull and
// returns an empty username. Errors carry builders.StageRegistryAuth (or StageValidation for an
// incomplete auth) and never contain a secret.
//
// Its signature is the OpenSandbox builder's RegistryLoginFunc.
func (e Exchanger) Login(ctx context.Context, image string, auth *builders.RegistryAuth) (username string, password builders.Secret, err error) {
	if auth == nil {
		return "", builders.Secret{}, nil
	}
	if err := auth.Validate(); err != nil {
		return "", builders.Secret{}, builders.AtStage(builders.StageValidation, err)
	}
	switch auth.Kind() {
	case builders.RegistryAuthAWS:
		return e.ecrLogin(ctx, image, auth.AWS)
	case builders.RegistryAuthGCP:
		return e.gcpLogin(ctx, auth.GCP)
	default:
		return auth.Basic.Username, auth.Basic.Password, nil
	}
}
