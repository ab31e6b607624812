package opensandbox

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Environment variables the provider settings fall back to; the names are the OpenSandbox SDKs'.
const (
	EnvAPIKey   = "OPEN_SANDBOX_API_KEY"
	EnvDomain   = "OPEN_SANDBOX_DOMAIN"
	EnvProtocol = "OPEN_SANDBOX_PROTOCOL"
)

// DefaultDomain is the SDKs' default server address (sdks/sandbox/go constants.go).
const DefaultDomain = "localhost:8080"

// DefaultMaxSandboxTimeoutSeconds is the sandbox lifetime cap assumed when Config sets none: the
// server.max_sandbox_timeout_seconds of OpenSandbox's example configurations (one day). A server
// without a cap (its default) accepts it too.
const DefaultMaxSandboxTimeoutSeconds = 86400

// DefaultPollInterval is how often sandbox and snapshot states are polled.
const DefaultPollInterval = 2 * time.Second

// Config configures a Builder.
type Config struct {
	// BaseURL is the lifecycle API, e.g. http://host:8080/v1. It wins over Domain.
	BaseURL string
	// Domain is the server address as the SDKs take it ("host:8080", or with a scheme); the
	// lifecycle API is then <scheme>://<domain>/v1, the scheme defaulting to http. With neither
	// BaseURL nor Domain, DefaultDomain is used, as the SDKs do.
	Domain string
	// APIKey is sent as OPEN-SANDBOX-API-KEY; empty sends no key (a server without auth).
	APIKey builders.Secret
	// HTTPClient is used for every call; nil means a client without a global timeout (execd
	// streams may run long; contexts bound every call).
	HTTPClient *http.Client
	// UserAgent is sent with every request, execd's too; empty means apihttp.DefaultUserAgent.
	UserAgent string
	// PollInterval between state polls; zero means DefaultPollInterval.
	PollInterval time.Duration
	// RegistryLogin exchanges AWS and GCP registry credentials; basic auth never calls it.
	RegistryLogin builders.RegistryLoginFunc
	// MaxSandboxTimeoutSeconds is the server's server.max_sandbox_timeout_seconds: the builder
	// sandbox's timeout stays within it (a larger one is a 400). Zero means
	// DefaultMaxSandboxTimeoutSeconds; the API minimum is 60.
	MaxSandboxTimeoutSeconds int
}

func (c Config) maxSandboxTimeoutSeconds() (int, error) {
	switch {
	case c.MaxSandboxTimeoutSeconds == 0:
		return DefaultMaxSandboxTimeoutSeconds, nil
	case c.MaxSandboxTimeoutSeconds < minSandboxTimeout:
		return 0, fmt.Errorf("opensandbox: max_sandbox_timeout_seconds must be at least %d (the API's minimum sandbox timeout), got %d",
			minSandboxTimeout, c.MaxSandboxTimeoutSeconds)
	}
	return c.MaxSandboxTimeoutSeconds, nil
}

// lifecycleURL resolves BaseURL, or Domain the way the SDKs' GetBaseURL + "/v1" does.
func (c Config) lifecycleURL() (*url.URL, error) {
	raw := strings.TrimRight(c.BaseURL, "/")
	if raw == "" {
		domain := c.Domain
		if domain == "" {
			domain = DefaultDomain
		}
		if !hasScheme(domain) {
			domain = "http://" + domain
		}
		raw = strings.TrimRight(domain, "/") + "/v1"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("opensandbox: %q is not an http(s) URL for the lifecycle API", raw)
	}
	return u, nil
}

func hasScheme(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}
