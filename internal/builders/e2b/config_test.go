package e2b

import (
	"errors"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

func TestAPIURL(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "https://api.e2b.app"},
		{Config{Domain: "e2b.example.com"}, "https://api.e2b.example.com"},
		{Config{Domain: "e2b.example.com", APIURL: "http://127.0.0.1:3000/"}, "http://127.0.0.1:3000"},
	} {
		u, err := tt.cfg.apiURL()
		if err != nil || u.String() != tt.want {
			t.Errorf("apiURL(%+v) = %v, %v; want %s", tt.cfg, u, err, tt.want)
		}
	}
	if _, err := (Config{APIURL: "ftp://x"}).apiURL(); err == nil {
		t.Error("a non-http URL must be rejected")
	}
}

func TestNewRequiresAnAPIKey(t *testing.T) {
	_, err := New(Config{})
	if !errors.Is(err, ErrNoAPIKey) || builders.StageOf(err, "") != builders.StageValidation || !strings.Contains(err.Error(), "E2B_API_KEY") {
		t.Errorf("New without a key = %v, want ErrNoAPIKey at VALIDATION", err)
	}
}

func TestRequestsCarryKeyAndUserAgent(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu, func(c *Config) { c.UserAgent = "sandboxtf-test/1.0" })
	if _, err := b.IsUsable(t.Context(), "py"); err != nil {
		t.Fatal(err)
	}
	r := emu.Requests()[0]
	if r.Header.Get("User-Agent") != "sandboxtf-test/1.0" || r.Header.Get("X-API-Key") == "" {
		t.Errorf("headers = %v, want the user agent and an API key", r.Header)
	}
	if s := b.api.APIKey.String(); s != builders.Redacted {
		t.Errorf("the key prints as %q", s)
	}
}
