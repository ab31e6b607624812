package e2b

import (
	"context"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Name is the backend's name in HCL.
const Name builders.SandboxProvider = "e2b"

// Provider-block settings, each falling back to the environment variable of E2B's SDKs.
var (
	settingAPIKey = builders.Setting{Path: "e2b.api_key", Env: EnvAPIKey, Sensitive: true,
		Description: "E2B API key. Defaults to `" + EnvAPIKey + "`."}
	settingDomain = builders.Setting{Path: "e2b.domain", Env: EnvDomain,
		Description: "E2B domain; the API is `https://api.<domain>`. Defaults to `" + EnvDomain + "`, then `" + DefaultDomain + "`."}
	settingAPIURL = builders.Setting{Path: "e2b.api_url", Env: EnvAPIURL,
		Description: "Full API URL, overriding `domain` (self-hosted E2B, tests). Defaults to `" + EnvAPIURL + "`."}
	settingSandboxURL = builders.Setting{Path: "e2b.sandbox_url", Env: EnvSandboxURL,
		Description: "URL of the sandboxes' envd, which `sandbox_template_check` runs commands through, overriding `domain` " +
			"(E2B's client proxy when self-hosted, tests). Defaults to `" + EnvSandboxURL + "`."}
)

// Backend describes E2B: templates built from an image, a base template or a Dockerfile.
var Backend = builders.Backend{
	Name:               Name,
	Title:              "E2B",
	TemplateID:         builders.NameRule,
	TemplateNoun:       "template alias",
	Sources:            []string{builders.SourceImage, builders.SourceBaseTemplate, builders.SourceDockerfile},
	DefaultStartCmdDoc: "`" + DefaultStartCmd + "`, in images built from `e2bdev/code-interpreter`",
	Lists:              true,
	Settings:           []builders.Setting{settingAPIKey, settingDomain, settingAPIURL, settingSandboxURL},
	Blocks:             []builders.SettingBlock{{Path: "e2b", Description: "E2B API access."}},
	Open:               open,
	Check:              check,
	Tags:               &tagRules,
	Checks:             true,
	Ignored: map[string]string{
		"disk_gb":   "E2B sizes a sandbox's disk by the team's tier; min_free_disk_mb keeps free space in the template",
		"gpu_count": "E2B sandboxes have no GPUs",
	},
}

// Backend is E2B's descriptor.
func (b *Builder) Backend() *builders.Backend { return &Backend }

func open(_ context.Context, env builders.Env) (builders.Builder, error) {
	cfg := Config{Domain: env.Settings.String(settingDomain.Path), APIURL: env.Settings.String(settingAPIURL.Path),
		SandboxURL: env.Settings.String(settingSandboxURL.Path), APIKey: builders.NewSecret(env.Settings.String(settingAPIKey.Path))}
	if cfg.APIKey.IsEmpty() {
		return nil, builders.MissingSetting(Name, settingAPIKey, env.Settings)
	}
	cfg.UserAgent = env.UserAgent
	cfg.HTTPClient = apihttp.TimeoutClient(env.RequestTimeout)
	return New(cfg)
}

// check adds E2B's own rules: its sizing, commands on a base template, the default start command
// after a user step (default_start_user.go), and a Dockerfile it can build from a spec (see
// parseDockerfile).
func check(spec builders.TemplateSpec) builders.FieldErrors {
	errs := append(sizingAndCommands(spec), defaultStartAsUserProblem(spec)...)
	if spec.Dockerfile == "" {
		return errs
	}
	if err := ValidateDockerfile(spec.Dockerfile); err != nil {
		errs = append(errs, builders.FieldError{Field: builders.SourceDockerfile, Message: strings.TrimPrefix(err.Error(), "dockerfile: ")})
	}
	return errs
}
