package bedrock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
)

// Config selects the AWS account, region and endpoint. Everything left empty comes from the SDK's
// default chain: AWS_REGION, AWS_PROFILE, AWS_ACCESS_KEY_ID..., the shared config files, SSO, IMDS,
// and AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL / AWS_ENDPOINT_URL for the endpoint.
type Config struct {
	Region  string
	Profile string
	// Endpoint overrides the bedrock-agentcore-control base endpoint, over any environment setting.
	Endpoint string
	// RequestTimeout bounds each request to AWS (the provider's request_timeout); zero: none.
	RequestTimeout time.Duration
	// AWSConfig is a prebuilt configuration to use instead of loading one; Profile is then ignored
	// and a non-empty Region overrides the config's.
	AWSConfig *aws.Config
}

// ErrNoRegion is returned by New when neither the config nor the AWS default chain names a region.
var ErrNoRegion = errors.New("bedrock: no AWS region: set region in the provider or AWS_REGION (code interpreters are regional)")

// New returns a builder for the configured account and region. It makes no request.
func New(ctx context.Context, cfg Config) (*Builder, error) {
	awsCfg, err := cfg.awsConfig(ctx)
	if err != nil {
		return nil, err
	}
	if awsCfg.Region == "" {
		return nil, ErrNoRegion
	}
	awsCfg.HTTPClient = boundedRedirects(awsCfg.HTTPClient)
	client := bedrockagentcorecontrol.NewFromConfig(awsCfg, func(o *bedrockagentcorecontrol.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint) // options run after env resolution, so this wins
		}
	})
	return &Builder{client: client, credentials: awsCfg.Credentials, region: awsCfg.Region}, nil
}

func (c Config) awsConfig(ctx context.Context) (aws.Config, error) {
	if c.AWSConfig != nil {
		awsCfg := c.AWSConfig.Copy()
		if c.Region != "" {
			awsCfg.Region = c.Region
		}
		return awsCfg, nil
	}
	var opts []func(*config.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	if c.Profile != "" {
		opts = append(opts, config.WithSharedConfigProfile(c.Profile))
	}
	if c.RequestTimeout > 0 {
		opts = append(opts, config.WithHTTPClient(awshttp.NewBuildableClient().WithTimeout(c.RequestTimeout)))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("bedrock: loading AWS configuration: %w", err)
	}
	return awsCfg, nil
}
