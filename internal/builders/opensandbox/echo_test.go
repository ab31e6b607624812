package opensandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
)

// echoServer answers every request 502 with a message quoting its headers and its body in several
// encodings, as a debugging proxy might, and a 422 detail doing the same.
func echoServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		echoed := buildertest.SecretForms(string(body))
		for name, values := range r.Header {
			echoed = append(echoed, name+": "+strings.Join(values, ","))
		}
		text := strings.Join(echoed, " | ")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-ID", r.Header.Get(apiKeyHeader))
		w.WriteHeader(http.StatusBadGateway)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": text, "message": text,
			"detail": []map[string]any{{"loc": []string{"body", text}, "msg": text}}})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Every text of an error answer (code, message, validation, request id) is scrubbed of the API
// key and the registry password, in each encoding a server may echo them in.
func TestEchoedRequestsNeverLeakTheAPIKeyOrPassword(t *testing.T) {
	const password = `echo-pa"ss\<w&rd>/+=`
	b, err := New(Config{BaseURL: echoServer(t), APIKey: builders.NewSecret(testAPIKey), PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	req := createSandboxRequest{Image: imageSpec{URI: opensandboxCI, Auth: &imageAuth{Username: "robot", Password: builders.NewSecret(password)}}}
	_, err = b.api.createSandbox(t.Context(), req)
	if err == nil || !strings.Contains(err.Error(), "HTTP 502") || !strings.Contains(err.Error(), "robot") {
		t.Fatalf("want the echoed 502, got %v", err)
	}
	buildertest.AssertNoSecretForms(t, "the error", err.Error(), password, testAPIKey)
}
