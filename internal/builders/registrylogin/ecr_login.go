package registrylogin

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/smithy-go"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// ecrLogin exchanges the key pair for an ECR authorization token in the spec's region (Login has
// checked that image is in an ECR registry of that region: tokens are regional). The request
// names no registry: ECR deprecated registryIds, as a token opens every registry of the region
// the caller may pull from.
func (e Exchanger) ecrLogin(ctx context.Context, auth *builders.AWSAuth) (string, builders.Secret, error) {
	region := strings.TrimSpace(auth.Region)
	client, err := e.ecrClient(ctx, auth, region)
	if err != nil {
		return "", builders.Secret{}, registryAuthError(err, auth.SecretAccessKey)
	}
	out, err := client.GetAuthorizationToken(ctx, &ecr.GetAuthorizationTokenInput{})
	if err != nil {
		return "", builders.Secret{}, registryAuthError(ecrCallError(region, err), auth.SecretAccessKey)
	}
	if len(out.AuthorizationData) == 0 {
		return "", builders.Secret{}, registryAuthError(fmt.Errorf("registry_auth.aws: ECR in %s returned no authorization data", region))
	}
	return decodeECRToken(aws.ToString(out.AuthorizationData[0].AuthorizationToken))
}

// ecrClient builds a client that signs with the spec's static keys only: an explicit credentials
// provider wins over the environment and shared-config chain, while endpoint settings from the
// environment (AWS_ENDPOINT_URL_ECR, AWS_ENDPOINT_URL) still apply.
func (e Exchanger) ecrClient(ctx context.Context, auth *builders.AWSAuth, region string) (*ecr.Client, error) {
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(region),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(auth.AccessKeyID, auth.SecretAccessKey.Reveal(), "")),
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("registry_auth.aws: loading AWS configuration: %w", err)
	}
	return ecr.NewFromConfig(cfg, func(o *ecr.Options) {
		if e.HTTPClient != nil {
			// Set on the client, not the config: the loader refuses a plain *http.Client when it
			// has to add AWS_CA_BUNDLE roots to it. A caller's own client is used as it is.
			o.HTTPClient = e.HTTPClient
		}
		if e.AWSBaseEndpoint != "" {
			o.BaseEndpoint = aws.String(e.AWSBaseEndpoint) // options run after env resolution, so this wins
		}
	}), nil
}

// ecrCallError names the AWS error code and message (UnrecognizedClientException, ...) up front.
func ecrCallError(region string, err error) error {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return &causedError{
			msg:   fmt.Sprintf("registry_auth.aws: ECR GetAuthorizationToken in %s failed: %s: %s", region, apiErr.ErrorCode(), apiErr.ErrorMessage()),
			cause: err,
		}
	}
	return fmt.Errorf("registry_auth.aws: ECR GetAuthorizationToken in %s failed: %w", region, err)
}

// decodeECRToken splits base64("AWS:<password>"); errors never quote the token.
func decodeECRToken(token string) (string, builders.Secret, error) {
	decoded, err := base64.StdEncoding.DecodeString(token)
	if err != nil {
		return "", builders.Secret{}, registryAuthError(errors.New("registry_auth.aws: ECR returned an authorization token that is not base64"))
	}
	user, password, ok := strings.Cut(string(decoded), ":")
	if !ok || user == "" || password == "" {
		return "", builders.Secret{}, registryAuthError(errors.New("registry_auth.aws: ECR returned an authorization token that is not user:password"))
	}
	return user, builders.NewSecret(password), nil
}
