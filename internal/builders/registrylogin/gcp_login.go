package registrylogin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

const (
	// imageReadScope is the narrowest scope that reads images from Artifact Registry and
	// Container Registry (served by Artifact Registry): a token that leaks can change nothing.
	imageReadScope = "https://www.googleapis.com/auth/cloud-platform.read-only"
	// gcpAccessTokenUser is the username Artifact Registry and Container Registry expect with an
	// OAuth2 access token as the password.
	gcpAccessTokenUser = "oauth2accesstoken"
)

// gcpLogin exchanges the service-account key for an access token at the key's token_uri.
func (e Exchanger) gcpLogin(ctx context.Context, auth *builders.GCPAuth) (string, builders.Secret, error) {
	key, err := auth.Resolved()
	if err != nil {
		return "", builders.Secret{}, registryAuthError(err, auth.ServiceAccountJSON)
	}
	secrets := keySecrets(key)
	client, recorder := recordingClient(e.HTTPClient)
	ctx = context.WithValue(ctx, oauth2.HTTPClient, client)
	creds, err := google.CredentialsFromJSONWithType(ctx, []byte(key.Reveal()), google.ServiceAccount, imageReadScope)
	if err != nil {
		return "", builders.Secret{}, registryAuthError(fmt.Errorf("registry_auth.gcp.service_account_json: not a usable service account key: %w", err), secrets...)
	}
	token, err := creds.TokenSource.Token()
	if err != nil {
		return "", builders.Secret{}, registryAuthError(tokenError(err), append(secrets, recorder.assertions()...)...)
	}
	if token.AccessToken == "" {
		return "", builders.Secret{}, registryAuthError(errors.New("registry_auth.gcp: Google's token endpoint returned no access token"))
	}
	return gcpAccessTokenUser, builders.NewSecret(token.AccessToken), nil
}

// tokenError says what the token endpoint answered (status and OAuth2 error), or why the
// assertion could not be made (an unparsable private key).
func tokenError(err error) error {
	var retrieve *oauth2.RetrieveError
	if !errors.As(err, &retrieve) {
		return fmt.Errorf("registry_auth.gcp: getting an access token with the service account key: %w", err)
	}
	var body struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	_ = json.Unmarshal(retrieve.Body, &body)
	status := "no response"
	if retrieve.Response != nil {
		status = retrieve.Response.Status
	}
	detail := strings.TrimSpace(strings.Join([]string{body.Error, body.Description}, ": "))
	if body.Error == "" {
		detail = "unexpected response"
	}
	return &causedError{msg: fmt.Sprintf("registry_auth.gcp: Google's token endpoint refused the service account key (%s): %s", status, detail), cause: err}
}

// keySecrets lists what of a key file must never appear in an error: the whole file and its
// private key (builders.Scrub also scrubs each line of its PEM body).
func keySecrets(content builders.Secret) []builders.Secret {
	secrets := []builders.Secret{content}
	var key struct {
		PrivateKey string `json:"private_key"`
	}
	if json.Unmarshal([]byte(content.Reveal()), &key) == nil && key.PrivateKey != "" {
		secrets = append(secrets, builders.NewSecret(key.PrivateKey))
	}
	return secrets
}
