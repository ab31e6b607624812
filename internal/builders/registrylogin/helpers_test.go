package registrylogin

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// isolateAWS keeps the SDK away from ~/.aws and plants decoy environment credentials and region,
// so a test passes only if the spec's own keys and region are what reach the wire.
func isolateAWS(t *testing.T) {
	t.Helper()
	awsemu.IsolateSDK(t, map[string]string{"AWS_ACCESS_KEY_ID": "AKIADECOYENVIRONMENT", "AWS_SECRET_ACCESS_KEY": "decoy-env-secret",
		"AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "ap-south-1"})
}

// countingTransport proves which HTTP client carried the requests.
type countingTransport struct{ requests atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.requests.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func assertNoSecret(t *testing.T, err error, secrets ...string) {
	t.Helper()
	if err == nil {
		return
	}
	for _, text := range []string{err.Error(), strings.ReplaceAll(err.Error(), "\n", "")} {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(text, secret) {
				t.Fatalf("error leaks a secret: %v", err)
			}
		}
	}
}
