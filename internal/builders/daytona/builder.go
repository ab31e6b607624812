package daytona

import (
	"errors"
	"net/http"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// ErrNoAPIKey is New's error when Config has no API key.
var ErrNoAPIKey = errors.New("daytona: an API key is required: set " + EnvAPIKey + " or provider " + settingAPIKey.Path)

// Builder makes Daytona templates (snapshots named after their inputs).
type Builder struct {
	api           *client
	cfg           Config
	pollInterval  time.Duration
	registryLogin builders.RegistryLoginFunc
	now           func() time.Time
}

var (
	_ builders.Builder        = (*Builder)(nil)
	_ builders.Deleter        = (*Builder)(nil)
	_ builders.Lister         = (*Builder)(nil) // Backend.Lists
	_ builders.ServingChecker = (*Builder)(nil)
	_ builders.InputsChecker  = (*Builder)(nil)
	_ builders.Activator      = (*Builder)(nil)
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
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Builder{api: newClient(base, cfg), cfg: cfg, pollInterval: cfg.PollInterval, registryLogin: cfg.RegistryLogin, now: cfg.Now}, nil
}
