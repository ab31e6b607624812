package registrylogin

import (
	"errors"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// causedError has its own message but keeps the library error for errors.As.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// registryAuthError places err at REGISTRY_AUTH (unless it has a stage) after passing its text
// through builders.Scrub, so none of the secrets shows in it in any encoding. A message that had to be scrubbed loses its cause, whose text leaks too.
func registryAuthError(err error, secrets ...builders.Secret) error {
	msg := err.Error()
	if scrubbed := builders.Scrub(msg, secrets...); scrubbed != msg {
		err = errors.New(scrubbed)
	}
	return builders.AtStageIfBare(builders.StageRegistryAuth, err)
}
