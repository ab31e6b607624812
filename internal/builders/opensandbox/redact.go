package opensandbox

import "github.com/sandboxtf/terraform-provider-sandbox/internal/builders"

// secrets are what the create body reveals when encoded, so that an error message echoing the
// body (a proxy's, a debugging server's) is scrubbed of them (apihttp.Request.Secrets).
func (r createSandboxRequest) secrets() []builders.Secret {
	if r.Image.Auth == nil {
		return nil
	}
	return []builders.Secret{r.Image.Auth.Password}
}
