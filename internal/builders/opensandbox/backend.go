package opensandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Name is the backend's name in HCL.
const Name builders.SandboxProvider = "opensandbox"

// Provider-block settings, each falling back to the environment variable of OpenSandbox's SDKs.
var (
	settingDomain = builders.Setting{Path: "opensandbox.domain", Env: EnvDomain, EnvValue: domainFromEnv,
		Description: "OpenSandbox server, as `host:port` or a URL. Defaults to `" + EnvDomain + "`."}
	settingAPIKey = builders.Setting{Path: "opensandbox.api_key", Env: EnvAPIKey, Sensitive: true,
		Description: "OpenSandbox API key. Defaults to `" + EnvAPIKey + "`."}
	settingMaxSandboxTimeout = builders.Setting{Path: "opensandbox.max_sandbox_timeout_seconds", Int: true, Min: minSandboxTimeout,
		Description: fmt.Sprintf("The server's `server.max_sandbox_timeout_seconds`: the longest sandbox `timeout` it "+
			"accepts. The builder sandbox lives for the build's timeout plus 10 minutes, capped at this; a build whose "+
			"create or update timeout is longer fails before it starts. Defaults to %d (one day, as in OpenSandbox's "+
			"example configuration; a server without a cap accepts it).", DefaultMaxSandboxTimeoutSeconds)}
)

// Backend describes OpenSandbox: templates are named snapshots of a sandbox started from an image.
var Backend = builders.Backend{
	Name:         Name,
	Title:        "OpenSandbox",
	TemplateID:   builders.NameRule,
	TemplateNoun: "snapshot name",
	Sources:      []string{builders.SourceImage},
	Ignored: map[string]string{
		"cpu_count":        "OpenSandbox snapshots carry no sizing; set resource limits where sandboxes are started",
		"memory_mb":        "OpenSandbox snapshots carry no sizing; set resource limits where sandboxes are started",
		"min_free_disk_mb": "OpenSandbox snapshots carry no disk sizing",
		"disk_gb":          "OpenSandbox snapshots carry no disk sizing",
		"gpu_count":        "OpenSandbox snapshots carry no sizing; set resource limits where sandboxes are started",
		"base_template":    "OpenSandbox snapshots a sandbox started from an image; it has no templates to build on",
		"dockerfile":       "OpenSandbox cannot build from a Dockerfile; use image, packages and steps",
	},
	DefaultStartCmdDoc: "`" + CodeInterpreterEntrypoint[0] + "`, in images built from `opensandbox/code-interpreter`",
	Lists:              true,
	RegistryLogin:      true,
	Settings:           []builders.Setting{settingDomain, settingAPIKey, settingMaxSandboxTimeout},
	Blocks:             []builders.SettingBlock{{Path: "opensandbox", Description: "OpenSandbox lifecycle API access."}},
	Open:               open,
	SandboxEntrypoint:  SandboxEntrypoint,
	Check:              check,
	// A snapshot keeps the filesystem only: consumers pass sandbox_env, sandbox_workdir, sandbox_user.
	ConsumersPassStepsContext: true,
	Checks:                    true,
}

// domainFromEnv is OPEN_SANDBOX_DOMAIN, with OPEN_SANDBOX_PROTOCOL as its scheme when it has none,
// as the SDKs read them.
func domainFromEnv(getenv func(string) string) string {
	domain := getenv(EnvDomain)
	if protocol := getenv(EnvProtocol); protocol != "" && domain != "" && !hasScheme(domain) {
		domain = protocol + "://" + domain
	}
	return domain
}

// Backend is OpenSandbox's descriptor.
func (b *Builder) Backend() *builders.Backend { return &Backend }

func open(_ context.Context, env builders.Env) (builders.Builder, error) {
	cfg := Config{Domain: env.Settings.String(settingDomain.Path), APIKey: builders.NewSecret(env.Settings.String(settingAPIKey.Path)),
		MaxSandboxTimeoutSeconds: env.Settings.Int(settingMaxSandboxTimeout.Path)}
	if cfg.Domain == "" {
		return nil, builders.MissingSetting(Name, settingDomain, env.Settings)
	}
	if env.RegistryLogin == nil { // the descriptor's RegistryLogin asks the provider for one
		return nil, errors.New("opensandbox: no registry login exchanger: the descriptor must set RegistryLogin")
	}
	cfg.RegistryLogin = env.RegistryLogin
	cfg.UserAgent = env.UserAgent
	cfg.HTTPClient = apihttp.StreamingClient(env.RequestTimeout)
	return New(cfg)
}

// check adds OpenSandbox's own rules. An env step's values reach every command and, through
// sandbox_env, the consumer's sandbox as written: nothing here expands "$NAME" in them as E2B's
// server does (commands/env.go evaluates each value in a shell), so a value with "$" would mean
// one thing on E2B and another here: it is refused, and the full value must be written out.
func check(spec builders.TemplateSpec) builders.FieldErrors {
	var errs builders.FieldErrors
	for i, step := range spec.Steps {
		for _, kv := range step.SortedEnv() {
			if strings.Contains(kv[1], "$") {
				errs = append(errs, builders.FieldError{Field: fmt.Sprintf("steps[%d].env", i),
					// The value is not quoted: it may be a credential (builders.MinEnvSecretLength).
					Message: fmt.Sprintf("%s: its value holds \"$\", but OpenSandbox passes env values as written, without expanding $ "+
						"(a snapshot keeps no environment; consumers pass sandbox_env when they start a sandbox): write the value out in full", kv[0])})
			}
		}
	}
	return errs
}
