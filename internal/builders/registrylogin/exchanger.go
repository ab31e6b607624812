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
// It is a builders.RegistryLoginFunc.
func (e Exchanger) Login(ctx context.Context, image string, auth builders.RegistryAuth) (username string, password builders.Secret, err error) {
	if err := builders.ValidateRegistryAuth(auth, image).Err(); err != nil {
		return "", builders.Secret{}, builders.AtStage(builders.StageValidation, err)
	}
	switch auth := auth.(type) {
	case *builders.AWSAuth:
		return e.ecrLogin(ctx, auth)
	case *builders.GCPAuth:
		return e.gcpLogin(ctx, auth)
	case *builders.BasicAuth:
		return auth.Username, auth.Password, nil
	}
	return "", builders.Secret{}, nil // anonymous
}

// SettingECREndpoint is the provider setting for ECR's endpoint, shared by every backend that
// exchanges registry_auth.aws for a login and by image_digest_check.
var SettingECREndpoint = builders.Setting{Path: "aws.endpoints.ecr", Env: "AWS_ENDPOINT_URL_ECR", SDKEnv: true,
	Description: "ECR endpoint. Defaults to `AWS_ENDPOINT_URL_ECR`."}

// FromSettings is the Exchanger the provider's settings configure.
func FromSettings(s builders.Settings) Exchanger {
	return Exchanger{AWSBaseEndpoint: s.String(SettingECREndpoint.Path)}
}
