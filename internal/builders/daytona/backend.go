package daytona

import (
	"context"
	"errors"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Name is the backend's name in HCL.
const Name builders.SandboxProvider = "daytona"

// Provider-block settings, each falling back to the environment variable Daytona's SDK reads.
var (
	settingAPIKey = builders.Setting{Path: "daytona.api_key", Env: EnvAPIKey, Sensitive: true,
		Description: "Daytona API key. Defaults to `" + EnvAPIKey + "`."}
	settingAPIURL = builders.Setting{Path: "daytona.api_url", Env: EnvAPIURL,
		Description: "Daytona API URL. Defaults to `" + EnvAPIURL + "`, then `" + DefaultAPIURL + "`."}
	settingTarget = builders.Setting{Path: "daytona.target", Env: EnvTarget,
		Description: "Region snapshots are built in and check sandboxes started in. Defaults to `" + EnvTarget +
			"`, then the organization's default region."}
	settingOrganizationID = builders.Setting{Path: "daytona.organization_id", Env: EnvOrganizationID,
		Description: "Organization the API key acts for, sent as `X-Daytona-Organization-ID`. Defaults to `" + EnvOrganizationID + "`."}
)

// Backend describes Daytona: templates are snapshots built from an image, with packages and steps.
var Backend = builders.Backend{
	Name:         Name,
	Title:        "Daytona",
	TemplateID:   templateIDRule,
	TemplateNoun: "snapshot name prefix",
	Sources:      []string{builders.SourceImage},
	Ignored: map[string]string{
		"ready_cmd":        "Daytona snapshots have no ready command",
		"ready_check":      "Daytona snapshots have no ready command",
		"min_free_disk_mb": "Daytona sizes a snapshot's disk in whole GB, not free space",
		"base_template":    "Daytona builds snapshots from an image; it has no templates to build on",
		"dockerfile":       "build from image, packages and steps instead",
	},
	Lists:           true,
	RegistryLogin:   true,
	Settings:        []builders.Setting{settingAPIKey, settingAPIURL, settingTarget, settingOrganizationID},
	Blocks:          []builders.SettingBlock{{Path: "daytona", Description: "Daytona API access."}},
	Open:            open,
	Check:           check,
	Checks:          true,
	RefNamesBuild:   true,
	TemplateOfBuild: templateOf,
}

// Backend is Daytona's descriptor.
func (b *Builder) Backend() *builders.Backend { return &Backend }

func open(_ context.Context, env builders.Env) (builders.Builder, error) {
	cfg := Config{APIKey: builders.NewSecret(env.Settings.String(settingAPIKey.Path)), APIURL: env.Settings.String(settingAPIURL.Path),
		Target: env.Settings.String(settingTarget.Path), OrganizationID: env.Settings.String(settingOrganizationID.Path)}
	if cfg.APIKey.IsEmpty() {
		return nil, builders.MissingSetting(Name, settingAPIKey, env.Settings)
	}
	if env.RegistryLogin == nil { // the descriptor's RegistryLogin asks the provider for one
		return nil, errors.New("daytona: no registry login exchanger: the descriptor must set RegistryLogin")
	}
	cfg.RegistryLogin = env.RegistryLogin
	cfg.UserAgent = env.UserAgent
	cfg.HTTPClient = apihttp.TimeoutClient(env.RequestTimeout)
	return New(cfg)
}
