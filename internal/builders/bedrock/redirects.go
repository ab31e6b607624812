package bedrock

import (
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// maxRedirects is the limit every API client here keeps (Go's own), which the SDK's client drops:
// it follows every 307 and 308, so a GET answered by a 307 to itself looped until the deadline.
const maxRedirects = apihttp.MaxRedirects

// boundedRedirects is c (the SDK's default client when nil) with at most maxRedirects redirects a
// request, on top of the SDK's own check (only 307 and 308, the session token kept to one host).
func boundedRedirects(c aws.HTTPClient) aws.HTTPClient {
	switch b := c.(type) {
	case nil:
		c = awshttp.NewBuildableClient().Freeze()
	case *awshttp.BuildableClient:
		c = b.Freeze()
	}
	hc, ok := c.(*http.Client)
	if !ok { // a caller's own client keeps its own policy
		return c
	}
	bounded, sdkCheck := *hc, hc.CheckRedirect
	bounded.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects (the last to %s://%s%s)", maxRedirects, r.URL.Scheme, r.URL.Host, r.URL.Path)
		}
		if sdkCheck != nil {
			return sdkCheck(r, via)
		}
		return nil
	}
	return &bounded
}
