package e2b

import (
	"errors"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// ErrNoAPIKey is New's error when Config has no API key.
var ErrNoAPIKey = errors.New("e2b: an API key is required: set " + settingAPIKey.Env + " or provider " + settingAPIKey.Path)

// Builder makes E2B templates. It implements builders.Builder and builders.Deleter.
type Builder struct {
	api          *client
	pollInterval time.Duration
	maxPoll      time.Duration
	envd         envdConfig // how sandboxes' envd is reached (sandbox_url.go)
}

var (
	_ builders.Builder        = (*Builder)(nil)
	_ builders.Deleter        = (*Builder)(nil)
	_ builders.Lister         = (*Builder)(nil) // Backend.Lists
	_ builders.ServingChecker = (*Builder)(nil)
	_ builders.SandboxStarter = (*Builder)(nil) // Backend.Checks
)

// New validates cfg and returns a Builder. It makes no request.
func New(cfg Config) (*Builder, error) {
	if cfg.APIKey.IsEmpty() {
		return nil, builders.AtStage(builders.StageValidation, ErrNoAPIKey)
	}
	base, err := cfg.apiURL()
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	sandboxURL, err := cfg.sandboxURL()
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	cfg = cfg.withDefaults()
	return &Builder{
		api:          newClient(base, cfg),
		pollInterval: cfg.PollInterval,
		maxPoll:      cfg.MaxPollInterval,
		envd:         envdConfig{sandboxURL: sandboxURL, domain: cfg.domain(), http: envdHTTPClient(cfg.HTTPClient), userAgent: cfg.UserAgent},
	}, nil
}
