package opensandbox

import (
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

func TestLifecycleURL(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "http://localhost:8080/v1"},
		{Config{Domain: "sandbox.example.com:9000"}, "http://sandbox.example.com:9000/v1"},
		{Config{Domain: "https://sandbox.example.com/"}, "https://sandbox.example.com/v1"},
		{Config{BaseURL: "https://api.example.com/v1/", Domain: "ignored:1"}, "https://api.example.com/v1"},
	} {
		u, err := tt.cfg.lifecycleURL()
		if err != nil || u.String() != tt.want {
			t.Errorf("%+v: %v, %v; want %s", tt.cfg, u, err, tt.want)
		}
	}
	if _, err := New(Config{BaseURL: "ftp://x"}); builders.StageOf(err, "") != builders.StageValidation {
		t.Errorf("a non-http base URL must fail validation, got %v", err)
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv(EnvAPIKey, "env-key-123")
	t.Setenv(EnvDomain, "osb.internal:8443")
	t.Setenv(EnvProtocol, "https")
	cfg := ConfigFromEnv()
	if cfg.APIKey.Reveal() != "env-key-123" || cfg.Domain != "https://osb.internal:8443" {
		t.Errorf("cfg = domain %q key %q", cfg.Domain, cfg.APIKey.Reveal())
	}
	if u, _ := cfg.lifecycleURL(); u.String() != "https://osb.internal:8443/v1" {
		t.Errorf("lifecycle URL = %v", u)
	}
	if printed := strings.Join([]string{cfg.APIKey.String()}, ""); strings.Contains(printed, "env-key-123") {
		t.Error("the API key must stay redacted")
	}
}
