package awsemu

import (
	"encoding/base64"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	agentcoretypes "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"github.com/aws/smithy-go"
)

var fixedNow = time.Date(2026, 3, 1, 12, 30, 45, 123_000_000, time.UTC)

const (
	testKeyID  = "AKIAAWSEMUTEST"
	testSecret = "awsemu-test-secret"
)

func newEmulator(t *testing.T) *Emulator {
	e := NewTestServer(t, Options{Now: func() time.Time { return fixedNow }})
	e.SetCredentials(testKeyID, testSecret)
	return e
}

func ecrClient(e *Emulator, region, keyID, secret string) *ecr.Client {
	return ecr.New(ecr.Options{
		Region: region, BaseEndpoint: aws.String(e.URL), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(keyID, secret, ""),
	})
}

func agentCoreClient(e *Emulator, region, keyID, secret string) *bedrockagentcorecontrol.Client {
	return bedrockagentcorecontrol.New(bedrockagentcorecontrol.Options{
		Region: region, BaseEndpoint: aws.String(e.URL), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(keyID, secret, ""),
	})
}

func apiErrorCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

func TestECRGetAuthorizationTokenRoundTrip(t *testing.T) {
	e := newEmulator(t)
	e.IssueToken("AWS", "pw:with:colons")
	out, err := ecrClient(e, "eu-west-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(),
		&ecr.GetAuthorizationTokenInput{RegistryIds: []string{"210987654321"}}) //nolint:staticcheck // deprecated, but ECR still accepts it, so the emulator does
	if err != nil {
		t.Fatal(err)
	}
	if len(out.AuthorizationData) != 1 {
		t.Fatalf("got %d authorization data, want 1", len(out.AuthorizationData))
	}
	data := out.AuthorizationData[0]
	decoded, _ := base64.StdEncoding.DecodeString(aws.ToString(data.AuthorizationToken))
	if string(decoded) != "AWS:pw:with:colons" {
		t.Errorf("token decodes to %q", decoded)
	}
	if want := fixedNow.Add(ECRTokenLifetime); data.ExpiresAt == nil || !data.ExpiresAt.Equal(want) {
		t.Errorf("expiresAt = %v, want %v", data.ExpiresAt, want)
	}
	if got := aws.ToString(data.ProxyEndpoint); got != "https://210987654321.dkr.ecr.eu-west-1.amazonaws.com" {
		t.Errorf("proxyEndpoint = %s", got)
	}
	reqs := e.Requests()
	if len(reqs) != 1 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	got := reqs[0]
	if got.Operation != "GetAuthorizationToken" || got.Region != "eu-west-1" || got.AccessKeyID != testKeyID || got.Service != "ecr" || got.ErrorCode != "" {
		t.Errorf("recorded %+v", got)
	}
}

func TestECRDefaultRegistry(t *testing.T) {
	e := newEmulator(t)
	out, err := ecrClient(e, "us-east-2", testKeyID, testSecret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(out.AuthorizationData[0].ProxyEndpoint); got != "https://"+DefaultAccountID+".dkr.ecr.us-east-2.amazonaws.com" {
		t.Errorf("proxyEndpoint = %s", got)
	}
}

func TestAuthenticationFailures(t *testing.T) {
	tests := []struct {
		name, keyID, secret, wantCode string
		deny                          bool
	}{
		{"unknown access key", "AKIAOTHER", testSecret, "UnrecognizedClientException", false},
		{"wrong secret", testKeyID, "not-the-secret", "InvalidSignatureException", false},
		{"denied by IAM", testKeyID, testSecret, "AccessDeniedException", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEmulator(t)
			e.SeedCodeInterpreter(SystemCodeInterpreterID, "READY")
			if tt.deny {
				e.DenyAccess("GetAuthorizationToken")
				e.DenyAccess("GetCodeInterpreter")
			}
			_, ecrErr := ecrClient(e, "us-east-1", tt.keyID, tt.secret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{})
			_, acErr := agentCoreClient(e, "us-east-1", tt.keyID, tt.secret).GetCodeInterpreter(t.Context(),
				&bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(SystemCodeInterpreterID)})
			for api, err := range map[string]error{"ecr": ecrErr, "agentcore": acErr} {
				if code := apiErrorCode(err); code != tt.wantCode {
					t.Errorf("%s: error code %q (%v), want %s", api, code, err, tt.wantCode)
				}
			}
			for _, req := range e.Requests() {
				if req.ErrorCode != tt.wantCode {
					t.Errorf("recorded %+v, want error code %s", req, tt.wantCode)
				}
			}
		})
	}
}

func TestAnyCredentialsWithoutSetCredentials(t *testing.T) {
	e := NewTestServer(t, Options{})
	if _, err := ecrClient(e, "us-east-1", "AKIAANY", "any").GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err != nil {
		t.Fatalf("without SetCredentials any signed request is accepted: %v", err)
	}
}

func TestUnsignedRequestIsRejected(t *testing.T) {
	e := newEmulator(t)
	resp, err := http.Get(e.URL + codeInterpretersPath + SystemCodeInterpreterID)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-Amzn-ErrorType") != "MissingAuthenticationTokenException" {
		t.Errorf("unsigned request answered %d %s", resp.StatusCode, resp.Header.Get("X-Amzn-ErrorType"))
	}
}

func TestGetCodeInterpreterRoundTrip(t *testing.T) {
	e := newEmulator(t)
	e.SeedFailedCodeInterpreter("my_interp-abcdefghij", "CREATE_FAILED", "role validation failed")
	e.SeedCodeInterpreter(SystemCodeInterpreterID, "READY")
	client := agentCoreClient(e, "us-west-2", testKeyID, testSecret)

	out, err := client.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String("my_interp-abcdefghij")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != agentcoretypes.CodeInterpreterStatusCreateFailed || aws.ToString(out.FailureReason) != "role validation failed" {
		t.Errorf("status %s (%s)", out.Status, aws.ToString(out.FailureReason))
	}
	if aws.ToString(out.Name) != "my_interp" || aws.ToString(out.CodeInterpreterArn) != "arn:aws:bedrock-agentcore:us-west-2:"+DefaultAccountID+":code-interpreter/my_interp-abcdefghij" {
		t.Errorf("name %s arn %s", aws.ToString(out.Name), aws.ToString(out.CodeInterpreterArn))
	}
	if out.CreatedAt == nil || !out.CreatedAt.Equal(fixedNow) || out.LastUpdatedAt == nil {
		t.Errorf("createdAt = %v, want %v", out.CreatedAt, fixedNow)
	}
	if out.NetworkConfiguration == nil || out.NetworkConfiguration.NetworkMode != agentcoretypes.CodeInterpreterNetworkModePublic {
		t.Errorf("network configuration = %+v", out.NetworkConfiguration)
	}

	system, err := client.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(SystemCodeInterpreterID)})
	if err != nil {
		t.Fatal(err)
	}
	if system.Status != agentcoretypes.CodeInterpreterStatusReady || aws.ToString(system.CodeInterpreterArn) != "arn:aws:bedrock-agentcore:us-west-2:aws:code-interpreter/aws.codeinterpreter.v1" {
		t.Errorf("system interpreter = %s %s", system.Status, aws.ToString(system.CodeInterpreterArn))
	}

	_, err = client.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String("missing-abcdefghij")})
	var notFound *agentcoretypes.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		t.Errorf("missing interpreter: want ResourceNotFoundException, got %v", err)
	}
	reqs := e.Requests()
	if len(reqs) != 3 || reqs[0].Operation != "GetCodeInterpreter" || reqs[0].Region != "us-west-2" || reqs[0].Service != "bedrock-agentcore" {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestStartAndClose(t *testing.T) {
	e := New(Options{})
	if err := e.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if _, err := ecrClient(e, "us-east-1", "AKIA", "s").GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
}
