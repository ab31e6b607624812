package registrylogin

import (
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// causedError has its own message but keeps the library error for errors.As.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// registryAuthError places err at REGISTRY_AUTH (unless it has a stage) after scrubbing its text
// (builders.ScrubError), so none of the secrets shows in it in any encoding.
func registryAuthError(err error, secrets ...builders.Secret) error {
	return builders.AtStageIfBare(builders.StageRegistryAuth, builders.ScrubError(err, secrets...))
}
