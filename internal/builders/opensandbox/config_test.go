package opensandbox

import (
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

// TestDomainFallback: the domain setting falls back to OPEN_SANDBOX_DOMAIN, given
// OPEN_SANDBOX_PROTOCOL's scheme when it has none, as the SDKs read them.
func TestDomainFallback(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{EnvDomain: "osb.internal:8443", EnvProtocol: "https"}, "https://osb.internal:8443"},
		{map[string]string{EnvDomain: "osb.internal:8443"}, "osb.internal:8443"},
		{map[string]string{EnvDomain: "http://osb.internal", EnvProtocol: "https"}, "http://osb.internal"},
		{map[string]string{EnvProtocol: "https"}, ""},
	} {
		getenv := func(name string) string { return tt.env[name] }
		if got := settingDomain.Fallback(getenv); got != tt.want {
			t.Errorf("Fallback(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
	cfg := Config{Domain: settingDomain.Fallback(func(name string) string {
		return map[string]string{EnvDomain: "osb.internal:8443", EnvProtocol: "https"}[name]
	})}
	if u, _ := cfg.lifecycleURL(); u.String() != "https://osb.internal:8443/v1" {
		t.Errorf("lifecycle URL = %v", u)
	}
}
