package opensandbox

import "github.com/sandboxtf/terraform-provider-sandbox/internal/builders"

// secretCarrier is a request body that knows the secrets it reveals when encoded, so that an
// error message echoing the body (a proxy's, a debugging server's) can be scrubbed of them.
type secretCarrier interface{ secrets() []builders.Secret }

func (r createSandboxRequest) secrets() []builders.Secret {
	if r.Image.Auth == nil {
		return nil
	}
	return []builders.Secret{r.Image.Auth.Password}
}

// scrubbed passes every text of an APIError through builders.Scrub with the API key and the
// secrets of the request body in, in every form a server may echo them.
func (c *client) scrubbed(err error, in any) error {
	e, ok := asAPIError(err)
	if !ok {
		return err
	}
	secrets := []builders.Secret{c.apiKey}
	if carrier, ok := in.(secretCarrier); ok {
		secrets = append(secrets, carrier.secrets()...)
	}
	e.Code = builders.Scrub(e.Code, secrets...)
	e.Message = builders.Scrub(e.Message, secrets...)
	e.RequestID = builders.Scrub(e.RequestID, secrets...)
	for i, v := range e.Validation {
		e.Validation[i] = builders.Scrub(v, secrets...)
	}
	return err
}
