package bedrock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
)

// Config selects the AWS account, region and endpoints. Everything left empty comes from the SDK's
// default chain: AWS_REGION, AWS_PROFILE, AWS_ACCESS_KEY_ID..., the shared config files, SSO, IMDS,
// and AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL, AWS_ENDPOINT_URL_BEDROCK_AGENTCORE /
// AWS_ENDPOINT_URL for the endpoints.
type Config struct {
	Region  string
	Profile string
	// Endpoint overrides the bedrock-agentcore-control base endpoint, over any environment setting.
	Endpoint string
	// DataEndpoint overrides the bedrock-agentcore (data plane: code interpreter sessions) base
	// endpoint, over any environment setting.
	DataEndpoint string
	// RequestTimeout bounds each request to AWS (the provider's request_timeout); zero: none. A
	// command run in a code interpreter session is bounded by its caller's context instead: the
	// timeout bounds the wait for the answer to start, not how long the command runs.
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
	dataCfg := awsCfg.Copy()
	dataCfg.HTTPClient = bufferedBodies{boundedRedirects(cfg.dataPlaneHTTPClient(awsCfg.HTTPClient))}
	awsCfg.HTTPClient = boundedRedirects(awsCfg.HTTPClient)
	client := bedrockagentcorecontrol.NewFromConfig(awsCfg, func(o *bedrockagentcorecontrol.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint) // options run after env resolution, so this wins
		}
	})
	data := bedrockagentcore.NewFromConfig(dataCfg, func(o *bedrockagentcore.Options) {
		if cfg.DataEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.DataEndpoint)
		}
	})
	return &Builder{client: client, data: data, credentials: awsCfg.Credentials, region: awsCfg.Region}, nil
}

// dataPlaneHTTPClient is the data plane's HTTP client: with a request timeout, one that bounds the
// wait for each answer's headers but not the reading of its body, as InvokeCodeInterpreter's event
// stream lasts as long as the command runs (the check's own timeout bounds that).
func (c Config) dataPlaneHTTPClient(loaded aws.HTTPClient) aws.HTTPClient {
	if c.RequestTimeout <= 0 || c.AWSConfig != nil {
		return loaded
	}
	return awshttp.NewBuildableClient().
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = c.RequestTimeout }).
		WithTransportOptions(func(t *http.Transport) { t.ResponseHeaderTimeout = c.RequestTimeout })
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
