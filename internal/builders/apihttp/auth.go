package apihttp

import (
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// AuthError is the API_AUTH error of refused API credentials; it names the setting to fix and
// never shows the key.
type AuthError struct{ Err *Error }

func (e *AuthError) Error() string {
	msg := fmt.Sprintf("%s rejected the API key (%d): %s", e.Err.Backend, e.Err.StatusCode, e.Err.authHint)
	if said := strings.TrimPrefix(strings.TrimSpace(e.Err.summary()), ": "); said != "" {
		msg += " (" + said + ")"
	}
	return msg
}

func (e *AuthError) Unwrap() error { return e.Err }

// AtStage wraps err with stage, except that refused API credentials are always API_AUTH, with a
// message that says which setting to fix.
func AtStage(stage builders.Stage, err error, logs ...string) error {
	if e, ok := AsError(err); ok && e.authHint != "" {
		return builders.AtStage(builders.StageAPIAuth, &AuthError{Err: e}, logs...)
	}
	return builders.AtStage(stage, err, logs...)
}
