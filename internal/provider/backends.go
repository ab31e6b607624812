package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/bedrock"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/registrylogin"
)

// backends hands resources the builder of each backend, built on first use so that a backend
// nobody uses needs no configuration.
type backends struct {
	cfg     providerModel
	version string
	// requestTimeout bounds each API request and each read (request_timeout).
	requestTimeout time.Duration

	mu    sync.Mutex
	cache map[builders.SandboxProvider]builders.Builder
}

func newBackends(cfg providerModel, version string) *backends {
	return &backends{cfg: cfg, version: version, requestTimeout: defaultRequestTimeout, cache: map[builders.SandboxProvider]builders.Builder{}}
}

// missingSettingError names the setting a used backend lacks, in HCL and environment terms.
type missingSettingError struct {
	Backend builders.SandboxProvider
	Setting string // e.g. "e2b.api_key"
	EnvVar  string
	// Unknown: the provider block sets it from a value only known after apply (another resource's
	// attribute), so at plan time it is missing only for now.
	Unknown bool
}

// knownLater tells whether err is only a setting whose value Terraform will know at apply.
func knownLater(err error) bool {
	var missing *missingSettingError
	return errors.As(err, &missing) && missing.Unknown
}

func (e *missingSettingError) Error() string {
	return fmt.Sprintf("the %s backend is used but not configured: set %s in the provider block or the %s environment variable",
		e.Backend, e.Setting, e.EnvVar)
}

// Builder returns (and caches) the builder for backend p.
func (b *backends) Builder(ctx context.Context, p builders.SandboxProvider) (builders.Builder, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if built, ok := b.cache[p]; ok {
		return built, nil
	}
	var (
		built builders.Builder
		err   error
	)
	switch p {
	case builders.ProviderE2B:
		built, err = b.e2b()
	case builders.ProviderOpenSandbox:
		built, err = b.openSandbox()
	case builders.ProviderBedrock:
		built, err = b.bedrock(ctx)
	default:
		err = fmt.Errorf("unknown backend %q", p)
	}
	if err != nil {
		return nil, err
	}
	b.cache[p] = built
	return built, nil
}

func (b *backends) e2b() (builders.Builder, error) {
	cfg := e2b.ConfigFromEnv()
	if c := b.cfg.E2B; c != nil {
		setSecret(&cfg.APIKey, c.APIKey)
		setString(&cfg.Domain, c.Domain)
		setString(&cfg.APIURL, c.APIURL)
	}
	if cfg.APIKey.IsEmpty() {
		return nil, &missingSettingError{Backend: builders.ProviderE2B, Setting: "e2b.api_key", EnvVar: "E2B_API_KEY",
			Unknown: b.cfg.E2B != nil && b.cfg.E2B.APIKey.IsUnknown()}
	}
	cfg.UserAgent = b.userAgent()
	cfg.HTTPClient = requestTimeoutClient(b.requestTimeout)
	return e2b.New(cfg)
}

func (b *backends) openSandbox() (builders.Builder, error) {
	cfg := opensandbox.ConfigFromEnv()
	if c := b.cfg.OpenSandbox; c != nil {
		setString(&cfg.Domain, c.Domain)
		setSecret(&cfg.APIKey, c.APIKey)
		if v := c.MaxSandboxTimeoutSeconds; !v.IsNull() && !v.IsUnknown() {
			cfg.MaxSandboxTimeoutSeconds = int(v.ValueInt64())
		}
	}
	if cfg.Domain == "" && cfg.BaseURL == "" {
		return nil, &missingSettingError{Backend: builders.ProviderOpenSandbox, Setting: "opensandbox.domain", EnvVar: "OPEN_SANDBOX_DOMAIN",
			Unknown: b.cfg.OpenSandbox != nil && b.cfg.OpenSandbox.Domain.IsUnknown()}
	}
	exchanger := registrylogin.Exchanger{}
	if c := b.cfg.AWS; c != nil && c.Endpoints != nil {
		setString(&exchanger.AWSBaseEndpoint, c.Endpoints.ECR)
	}
	cfg.RegistryLogin = exchanger.Login
	cfg.HTTPClient = streamingTimeoutClient(b.requestTimeout)
	return opensandbox.New(cfg)
}

func (b *backends) bedrock(ctx context.Context) (builders.Builder, error) {
	var cfg bedrock.Config
	if c := b.cfg.AWS; c != nil {
		setString(&cfg.Region, c.Region)
		setString(&cfg.Profile, c.Profile)
		if c.Endpoints != nil {
			setString(&cfg.Endpoint, c.Endpoints.BedrockAgentCoreControl)
		}
	}
	built, err := bedrock.New(ctx, cfg)
	if errors.Is(err, bedrock.ErrNoRegion) {
		return nil, &missingSettingError{Backend: builders.ProviderBedrock, Setting: "aws.region", EnvVar: "AWS_REGION",
			Unknown: b.cfg.AWS != nil && b.cfg.AWS.Region.IsUnknown()}
	}
	return built, err
}

func (b *backends) userAgent() string {
	return "terraform-provider-sandbox/" + b.version
}

func setString(dst *string, v types.String) {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		*dst = v.ValueString()
	}
}

func setSecret(dst *builders.Secret, v types.String) {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		*dst = builders.NewSecret(v.ValueString())
	}
}
