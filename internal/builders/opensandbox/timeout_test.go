package opensandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// Issue 11, problem 4: a timeout above the server's max_sandbox_timeout_seconds is a 400; the
// builder sandbox's timeout fits the cap the provider is told.
func TestBuilderSandboxTimeoutFitsTheServerCap(t *testing.T) {
	const limit = 1800
	withCap := func(c *Config) { c.MaxSandboxTimeoutSeconds = limit }

	t.Run("a build shorter than the cap fits", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{MaxSandboxTimeoutSeconds: limit}, withCap)
		ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute) // + margin > cap
		defer cancel()
		if got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{}); got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %+v", got)
		}
		if sb := h.onlySandbox(t); sb.Timeout == nil || *sb.Timeout > limit || *sb.Timeout < 25*60 {
			t.Errorf("timeout %v, want between the build's 25m and the cap", sb.Timeout)
		}
	})
	t.Run("a build longer than the cap is refused before it starts", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{MaxSandboxTimeoutSeconds: limit}, withCap)
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
		defer cancel()
		got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{})
		assertFailed(t, got, builders.StageValidation, "max_sandbox_timeout_seconds = 1800")
		if n := len(h.emu.Sandboxes()); n != 0 {
			t.Errorf("%d sandboxes created", n)
		}
	})
	t.Run("a server with a lower cap than configured", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{MaxSandboxTimeoutSeconds: limit})
		ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
		defer cancel()
		got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{})
		assertFailed(t, got, builders.StageTemplateCreate, "exceeds configured maximum of 1800s")
		if !strings.Contains(got.Detail, "set max_sandbox_timeout_seconds") {
			t.Errorf("the error should name the setting: %s", got.Detail)
		}
	})
	b, _ := New(Config{BaseURL: "http://127.0.0.1:1/v1", MaxSandboxTimeoutSeconds: limit})
	if err := b.CheckBuildTimeout(30 * time.Minute); err != nil {
		t.Errorf("30m within a 30m cap: %v", err)
	}
	if err := b.CheckBuildTimeout(31 * time.Minute); err == nil || !strings.Contains(err.Error(), "lower the resource's timeouts to at most 30m0s") {
		t.Errorf("31m above a 30m cap: %v", err)
	}
	if _, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", MaxSandboxTimeoutSeconds: 59}); builders.StageOf(err, "") != builders.StageValidation {
		t.Errorf("a cap below the API minimum: %v", err)
	}
}
