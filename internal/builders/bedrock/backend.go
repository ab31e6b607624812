package bedrock

import (
	"context"
	"errors"
	"regexp"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Name is the backend's name in HCL.
const Name builders.SandboxProvider = "bedrock"

// Provider-block settings; anything unset comes from the AWS SDK's default chain.
var (
	settingRegion = builders.Setting{Path: "aws.region", Env: "AWS_REGION", SDKEnv: true,
		Description: "AWS region. Defaults to the AWS default chain (`AWS_REGION`, profile)."}
	settingProfile = builders.Setting{Path: "aws.profile", Env: "AWS_PROFILE", SDKEnv: true,
		Description: "Shared config profile. Defaults to `AWS_PROFILE`."}
	settingEndpoint = builders.Setting{Path: "aws.endpoints.bedrockagentcore_control", Env: "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", SDKEnv: true,
		Description: "Bedrock AgentCore control-plane endpoint. Defaults to `AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL`."}
	settingDataEndpoint = builders.Setting{Path: "aws.endpoints.bedrockagentcore", Env: "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", SDKEnv: true,
		Description: "Bedrock AgentCore data-plane endpoint, where `sandbox_template_check` starts code interpreter sessions. " +
			"Defaults to `AWS_ENDPOINT_URL_BEDROCK_AGENTCORE`."}
)

// noTemplates is why Bedrock ignores every build input.
const (
	noImages    = "Bedrock AgentCore code interpreters have no custom images"
	noTemplates = "Bedrock AgentCore code interpreters have no templates"
)

// Backend describes Bedrock AgentCore: it builds nothing; template_id names an existing code
// interpreter, as the AgentCore control API defines its id.
var Backend = builders.Backend{
	Name:  Name,
	Title: "Bedrock AgentCore",
	TemplateID: builders.IDRule{
		Pattern: regexp.MustCompile(`^(?:aws\.codeinterpreter\.v1|[a-zA-Z][a-zA-Z0-9_]{0,47}-[a-zA-Z0-9]{10})$`),
		Text:    "a code interpreter id: aws.codeinterpreter.v1 or <name>-<10 letters or digits>",
	},
	TemplateNoun: "code interpreter id",
	Ignored: map[string]string{
		"image":            noImages,
		"registry_auth":    noImages,
		"packages":         "Bedrock AgentCore code interpreters ship fixed libraries",
		"steps":            "Bedrock AgentCore code interpreters are never built",
		"ready_check":      "Bedrock AgentCore code interpreters have no ready command",
		"min_free_disk_mb": "Bedrock AgentCore code interpreters have no sizing",
		"disk_gb":          "Bedrock AgentCore code interpreters have no sizing",
		"gpu_count":        "Bedrock AgentCore code interpreters have no sizing",
		"start_cmd":        "Bedrock AgentCore code interpreters have no start command",
		"ready_cmd":        "Bedrock AgentCore code interpreters have no ready command",
		"cpu_count":        "Bedrock AgentCore code interpreters have no sizing",
		"memory_mb":        "Bedrock AgentCore code interpreters have no sizing",
		"base_template":    noTemplates,
		"dockerfile":       noTemplates,
		"force_rebuild":    "Bedrock AgentCore code interpreters are never built",
	},
	Settings: []builders.Setting{settingRegion, settingProfile, settingEndpoint, settingDataEndpoint},
	// A check starts a session of the code interpreter (sandbox_starter.go).
	Checks: true,
	Blocks: []builders.SettingBlock{
		{Path: "aws", Description: "AWS access for Bedrock AgentCore and for turning `registry_auth.aws` into an ECR " +
			"login on backends that only take basic auth. Credentials come from the AWS default chain."},
		{Path: "aws.endpoints", Description: "Endpoint overrides. Default to `AWS_ENDPOINT_URL_<SERVICE>` / `AWS_ENDPOINT_URL`."},
	},
	Open: open,
}

// Backend is Bedrock's descriptor.
func (b *Builder) Backend() *builders.Backend { return &Backend }

func open(ctx context.Context, env builders.Env) (builders.Builder, error) {
	built, err := New(ctx, Config{Region: env.Settings.String(settingRegion.Path), Profile: env.Settings.String(settingProfile.Path),
		Endpoint: env.Settings.String(settingEndpoint.Path), DataEndpoint: env.Settings.String(settingDataEndpoint.Path),
		RequestTimeout: env.RequestTimeout})
	if errors.Is(err, ErrNoRegion) {
		return nil, builders.MissingSetting(Name, settingRegion, env.Settings)
	}
	return built, err
}
