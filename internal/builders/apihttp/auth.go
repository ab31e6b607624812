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

// OwnStage makes a refused key API_AUTH whichever call it answered (builders.AtStage keeps it).
func (e *AuthError) OwnStage() builders.Stage { return builders.StageAPIAuth }
