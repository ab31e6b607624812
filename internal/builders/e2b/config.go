package e2b

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Environment variables the provider settings fall back to; the names are the E2B SDKs'.
const (
	EnvAPIKey = "E2B_API_KEY"
	EnvDomain = "E2B_DOMAIN"
	EnvAPIURL = "E2B_API_URL"
	// EnvSandboxURL is where the SDKs reach every sandbox's envd instead of through the domain:
	// E2B's local setup (its client proxy) and emulators.
	EnvSandboxURL = "E2B_SANDBOX_URL"
)

// DefaultDomain is the SDKs' default domain; the API is served at api.<domain>.
const DefaultDomain = "e2b.app"

// Build status polling: the first poll comes after PollInterval, each next one waits 1.5 times
// longer, up to MaxPollInterval. A cap just over a second keeps a long build at about 55 status
// requests a minute (E2B's SDK polls every 200 ms: 300) while a finished build is noticed about
// half a second after it is ready, on average.
const (
	DefaultPollInterval    = 250 * time.Millisecond
	DefaultMaxPollInterval = 1100 * time.Millisecond
)

// DefaultUserAgent identifies the provider to E2B.
const DefaultUserAgent = apihttp.DefaultUserAgent

// Config configures a Builder.
type Config struct {
	// APIKey is sent as X-API-Key. It is required.
	APIKey builders.Secret
	// Domain is E2B's domain (DefaultDomain when empty); the API is https://api.<Domain>.
	Domain string
	// APIURL is the API's base URL; it wins over Domain (a self-hosted API, or an emulator).
	APIURL string
	// SandboxURL is the base URL of every sandbox's envd (E2B's client proxy, which routes by the
	// E2b-Sandbox-Id header); it wins over the domain (sandbox_url.go).
	SandboxURL string
	// HTTPClient is used for every call; nil means a client without a global timeout (contexts
	// bound every call).
	HTTPClient *http.Client
	// PollInterval is the first wait between build status polls; zero means DefaultPollInterval.
	PollInterval time.Duration
	// MaxPollInterval caps the backoff between polls; zero means DefaultMaxPollInterval.
	MaxPollInterval time.Duration
	// UserAgent is sent with every request; empty means DefaultUserAgent.
	UserAgent string
}

// apiURL resolves APIURL, or https://api.<Domain> as the SDKs' ConnectionConfig does.
func (c Config) apiURL() (*url.URL, error) {
	raw := strings.TrimRight(strings.TrimSpace(c.APIURL), "/")
	if raw == "" {
		domain := strings.TrimSpace(c.Domain)
		if domain == "" {
			domain = DefaultDomain
		}
		raw = "https://api." + domain
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("e2b: %q is not an http(s) URL for the E2B API (check E2B_API_URL / E2B_DOMAIN)", raw)
	}
	return u, nil
}

// sandboxURL parses SandboxURL, nil when it is unset.
func (c Config) sandboxURL() (*url.URL, error) {
	raw := strings.TrimRight(strings.TrimSpace(c.SandboxURL), "/")
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("e2b: %q is not an http(s) URL for E2B's sandboxes (check E2B_SANDBOX_URL)", raw)
	}
	return u, nil
}

// domain is Domain, or DefaultDomain.
func (c Config) domain() string {
	if d := strings.TrimSpace(c.Domain); d != "" {
		return d
	}
	return DefaultDomain
}

func (c Config) withDefaults() Config {
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.MaxPollInterval <= 0 {
		c.MaxPollInterval = DefaultMaxPollInterval
	}
	c.MaxPollInterval = max(c.MaxPollInterval, c.PollInterval)
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	return c
}
