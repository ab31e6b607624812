package apihttp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Only the backend's auth statuses are refused credentials, classified where the answer is read:
// API_AUTH whatever stage a caller wraps it with (or none), naming the setting to fix and what the
// server said, never the key. Any other answer keeps the caller's stage.
func TestRefusedCredentialsAreAPIAuthWhereverTheyHappen(t *testing.T) {
	const key = "the-api-key-0123456789"
	for _, tt := range []struct {
		status int
		want   builders.Stage
	}{
		{http.StatusUnauthorized, builders.StageAPIAuth},
		{http.StatusForbidden, builders.StageTemplateCreate}, // not one of this backend's auth statuses
		{http.StatusNotFound, builders.StageTemplateCreate},
	} {
		_, base := newScripted(t, answer{status: tt.status, body: "refused " + key})
		c, _ := testClient(base, 1)
		c.APIKeyHeader, c.APIKey, c.AuthStatuses, c.AuthHint = "X-Key", builders.NewSecret(key), []int{http.StatusUnauthorized}, "check TEST_API_KEY"
		c.ParseError = func(e *Error, _ http.Header, body []byte) { e.Code, e.Message = "BAD_KEY", string(body) }
		err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"})

		if got := builders.StageOf(fmt.Errorf("unwrapped: %w", err), builders.StageTemplateCreate); got != tt.want {
			t.Errorf("%d: an error no caller staged is at %s, want %s", tt.status, got, tt.want)
		}
		staged := builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("creating: %w", err), "a log line")
		if got := builders.StageOf(staged, ""); got != tt.want {
			t.Errorf("%d: stage %s, want %s", tt.status, got, tt.want)
		}
		if StatusOf(staged) != tt.status || len(builders.LogsOf(staged)) != 1 {
			t.Errorf("%d: the staged error lost its status or logs: %v", tt.status, staged)
		}
		if strings.Contains(staged.Error(), key) {
			t.Errorf("%d: the key leaked: %v", tt.status, staged)
		}
		var authErr *AuthError
		if tt.want == builders.StageAPIAuth {
			want := "Test rejected the API key (401): check TEST_API_KEY (BAD_KEY: refused [REDACTED])"
			if !errors.As(staged, &authErr) || authErr.Error() != want {
				t.Errorf("detail %q, want %q", builders.DetailOf(staged), want)
			}
		} else if errors.As(staged, &authErr) {
			t.Errorf("%d is no refused key: %v", tt.status, staged)
		}
	}
}
