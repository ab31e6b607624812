package registrylogin

import (
	"errors"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// causedError has its own message but keeps the library error for errors.As.
type causedError struct {
	msg   string
	cause error
}

func (e *causedError) Error() string { return e.msg }
func (e *causedError) Unwrap() error { return e.cause }

// registryAuthError places err at REGISTRY_AUTH (unless it has a stage) after making sure none of
// the secrets shows in it. A message that had to be scrubbed loses its cause, whose text leaks too.
func registryAuthError(err error, secrets ...string) error {
	msg := err.Error()
	scrubbed := msg
	for _, secret := range secrets {
		if secret != "" {
			scrubbed = strings.ReplaceAll(scrubbed, secret, builders.Redacted)
		}
	}
	if scrubbed != msg {
		err = errors.New(scrubbed)
	}
	return builders.AtStageIfBare(builders.StageRegistryAuth, err)
}
