package daytona

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Environment variables the provider settings fall back to; the names are the Daytona SDK's
// (Daytona.ts reads DAYTONA_API_KEY, DAYTONA_API_URL, DAYTONA_TARGET, DAYTONA_ORGANIZATION_ID).
const (
	EnvAPIKey         = "DAYTONA_API_KEY"
	EnvAPIURL         = "DAYTONA_API_URL"
	EnvTarget         = "DAYTONA_TARGET"
	EnvOrganizationID = "DAYTONA_ORGANIZATION_ID"
)

// DefaultAPIURL is the SDK's default API URL.
const DefaultAPIURL = "https://app.daytona.io/api"

// DefaultPollInterval is the wait between snapshot state reads; the SDK polls every second.
const DefaultPollInterval = time.Second

// ActivationCooldown is how long after a deactivation the server refuses to activate a snapshot
// ("Snapshot deactivation is still in progress", snapshot.service.ts activateSnapshot: 10 minutes
// after its updatedAt).
const ActivationCooldown = 10 * time.Minute

// Config configures a Builder.
type Config struct {
	APIKey builders.Secret // sent as a bearer token; required
	APIURL string          // DefaultAPIURL when empty
	// Target is the region snapshots are made in and sandboxes started in (the SDK's target,
	// which it sends as a snapshot's regionId); empty: the organization's default region.
	Target string
	// OrganizationID is sent as X-Daytona-Organization-ID when set.
	OrganizationID string
	HTTPClient     *http.Client
	UserAgent      string
	PollInterval   time.Duration // zero: DefaultPollInterval
	// RegistryLogin turns registry_auth into the basic login an organization registry entry holds.
	RegistryLogin builders.RegistryLoginFunc
	// ResolveDigest pins an image tag to the digest its registry serves (nil: imagedigest with
	// RegistryLogin). Daytona refuses :latest and an image without a tag.
	ResolveDigest func(ctx context.Context, image string, auth builders.RegistryAuth) (string, error)
	// Now is the clock the activation cooldown is read against (nil: time.Now).
	Now func() time.Time
}

func (c Config) apiURL() (*url.URL, error) {
	raw := strings.TrimRight(strings.TrimSpace(c.APIURL), "/")
	if raw == "" {
		raw = DefaultAPIURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("daytona: %q is not an http(s) URL for the Daytona API (check %s or provider %s)", raw, EnvAPIURL, settingAPIURL.Path)
	}
	return u, nil
}
