package opensandbox

import (
	"encoding/json"
	"strings"
)

// secretCarrier is a request body that knows the secrets it reveals when encoded, so that an
// error message echoing the body (a proxy's, a debugging server's) can be scrubbed of them.
type secretCarrier interface{ secretValues() []string }

func (r createSandboxRequest) secretValues() []string {
	if r.Image.Auth == nil || r.Image.Auth.Password.IsEmpty() {
		return nil
	}
	return []string{r.Image.Auth.Password.Reveal()}
}

// redacted removes the secrets of the request body in from an APIError's message, both as
// written and as JSON-encoded in the body the server may echo.
func redacted(err error, in any) error {
	carrier, ok := in.(secretCarrier)
	e, isAPI := asAPIError(err)
	if !ok || !isAPI {
		return err
	}
	for _, secret := range carrier.secretValues() {
		encoded, _ := json.Marshal(secret)
		for _, form := range []string{strings.Trim(string(encoded), `"`), secret} {
			if form != "" {
				e.Message = strings.ReplaceAll(e.Message, form, "[redacted]")
			}
		}
	}
	return err
}
