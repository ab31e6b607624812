package bedrock

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestRequestTimeoutBoundsEachRequest: with the provider's request_timeout, a control plane
// that never answers fails the lookup instead of holding it for as long as the caller's context
// allows (here: forever).
func TestRequestTimeoutBoundsEachRequest(t *testing.T) {
	isolateAWS(t)
	hung := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	b, err := Backend.Open(t.Context(), builders.Env{RequestTimeout: 200 * time.Millisecond, Settings: builders.Settings{
		Values: map[string]string{settingRegion.Path: "us-east-1", settingEndpoint.Path: hung.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.IsUsable(context.Background(), "ci-0123456789"); err == nil {
		t.Fatal("a lookup against a server that never answers succeeded")
	}
}
