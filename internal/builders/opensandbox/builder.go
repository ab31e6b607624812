package opensandbox

import (
	"net/http"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Builder makes OpenSandbox templates (named snapshots). It implements builders.Builder and
// builders.Deleter.
type Builder struct {
	api               *client
	pollInterval      time.Duration
	registryLogin     builders.RegistryLoginFunc
	maxSandboxTimeout int // seconds
}

var (
	_ builders.Builder             = (*Builder)(nil)
	_ builders.Deleter             = (*Builder)(nil)
	_ builders.BuildTimeoutChecker = (*Builder)(nil)
	_ builders.Lister              = (*Builder)(nil) // Backend.Lists
	_ builders.ServingChecker      = (*Builder)(nil)
)

// New validates cfg and returns a Builder. It makes no request.
func New(cfg Config) (*Builder, error) {
	base, err := cfg.lifecycleURL()
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	maxTimeout, err := cfg.maxSandboxTimeoutSeconds()
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	httpClient := cfg.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	poll := cfg.PollInterval
	if poll <= 0 {
		poll = DefaultPollInterval
	}
	return &Builder{
		api:               newClient(base, cfg, httpClient),
		pollInterval:      poll,
		registryLogin:     cfg.RegistryLogin,
		maxSandboxTimeout: maxTimeout,
	}, nil
}
