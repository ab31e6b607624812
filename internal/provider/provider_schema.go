package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/opensandbox"
)

// providerModel is the provider block. Every setting falls back to the environment variable the
// vendor's own SDK reads, so CI can configure the provider without HCL.
type providerModel struct {
	RequestTimeout types.String            `tfsdk:"request_timeout"`
	E2B            *e2bConfigModel         `tfsdk:"e2b"`
	OpenSandbox    *openSandboxConfigModel `tfsdk:"opensandbox"`
	AWS            *awsConfigModel         `tfsdk:"aws"`
}

type e2bConfigModel struct {
	APIKey types.String `tfsdk:"api_key"`
	Domain types.String `tfsdk:"domain"`
	APIURL types.String `tfsdk:"api_url"`
}

type openSandboxConfigModel struct {
	Domain                   types.String `tfsdk:"domain"`
	APIKey                   types.String `tfsdk:"api_key"`
	MaxSandboxTimeoutSeconds types.Int64  `tfsdk:"max_sandbox_timeout_seconds"`
}

type awsConfigModel struct {
	Region    types.String       `tfsdk:"region"`
	Profile   types.String       `tfsdk:"profile"`
	Endpoints *awsEndpointsModel `tfsdk:"endpoints"`
}

type awsEndpointsModel struct {
	ECR                     types.String `tfsdk:"ecr"`
	BedrockAgentCoreControl types.String `tfsdk:"bedrockagentcore_control"`
}

func providerSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Declares sandbox templates for AI code-execution sandboxes on E2B, OpenSandbox and " +
			"AWS Bedrock AgentCore. Configure only the backends you use; each setting falls back to the " +
			"environment variable the vendor's SDK reads.",
		Attributes: map[string]schema.Attribute{
			"request_timeout": schema.StringAttribute{Optional: true,
				MarkdownDescription: "How long one API request may wait for its answer (E2B and OpenSandbox), and " +
					"how long a refresh or a data source read may take, as a duration (`30s`, `2m`). A stalled backend then " +
					"fails the plan, naming the template and the backend, instead of hanging. Defaults to `2m`."},
		},
		Blocks: map[string]schema.Block{
			"e2b": schema.SingleNestedBlock{
				MarkdownDescription: "E2B API access.",
				Attributes: map[string]schema.Attribute{
					"api_key": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "E2B API key. Defaults to `E2B_API_KEY`."},
					"domain": schema.StringAttribute{Optional: true,
						MarkdownDescription: "E2B domain; the API is `https://api.<domain>`. Defaults to `E2B_DOMAIN`, then `e2b.app`."},
					"api_url": schema.StringAttribute{Optional: true,
						MarkdownDescription: "Full API URL, overriding `domain` (self-hosted E2B, tests). Defaults to `E2B_API_URL`."},
				},
			},
			"opensandbox": schema.SingleNestedBlock{
				MarkdownDescription: "OpenSandbox lifecycle API access.",
				Attributes: map[string]schema.Attribute{
					"domain": schema.StringAttribute{Optional: true,
						MarkdownDescription: "OpenSandbox server, as `host:port` or a URL. Defaults to `OPEN_SANDBOX_DOMAIN`."},
					"api_key": schema.StringAttribute{Optional: true, Sensitive: true,
						MarkdownDescription: "OpenSandbox API key. Defaults to `OPEN_SANDBOX_API_KEY`."},
					"max_sandbox_timeout_seconds": schema.Int64Attribute{Optional: true,
						MarkdownDescription: fmt.Sprintf("The server's `server.max_sandbox_timeout_seconds`: the longest sandbox `timeout` it "+
							"accepts. The builder sandbox lives for the build's timeout plus 10 minutes, capped at this; a build whose "+
							"create or update timeout is longer fails before it starts. Defaults to %d (one day, as in OpenSandbox's "+
							"example configuration; a server without a cap accepts it).", opensandbox.DefaultMaxSandboxTimeoutSeconds),
						Validators: []validator.Int64{int64validator.AtLeast(60)}},
				},
			},
			"aws": schema.SingleNestedBlock{
				MarkdownDescription: "AWS access for Bedrock AgentCore and for turning `registry_auth.aws` into an ECR " +
					"login on backends that only take basic auth. Credentials come from the AWS default chain.",
				Attributes: map[string]schema.Attribute{
					"region": schema.StringAttribute{Optional: true,
						MarkdownDescription: "AWS region. Defaults to the AWS default chain (`AWS_REGION`, profile)."},
					"profile": schema.StringAttribute{Optional: true,
						MarkdownDescription: "Shared config profile. Defaults to `AWS_PROFILE`."},
				},
				Blocks: map[string]schema.Block{
					"endpoints": schema.SingleNestedBlock{
						MarkdownDescription: "Endpoint overrides. Default to `AWS_ENDPOINT_URL_<SERVICE>` / `AWS_ENDPOINT_URL`.",
						Attributes: map[string]schema.Attribute{
							"ecr": schema.StringAttribute{Optional: true,
								MarkdownDescription: "ECR endpoint. Defaults to `AWS_ENDPOINT_URL_ECR`."},
							"bedrockagentcore_control": schema.StringAttribute{Optional: true,
								MarkdownDescription: "Bedrock AgentCore control-plane endpoint. Defaults to " +
									"`AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL`."},
						},
					},
				},
			},
		},
	}
}
