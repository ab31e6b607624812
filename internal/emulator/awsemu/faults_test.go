package awsemu

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	agentcoretypes "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
)

func httpStatus(err error) int {
	var respErr *awshttp.ResponseError
	if errors.As(err, &respErr) {
		return respErr.HTTPStatusCode()
	}
	return 0
}

func TestInjectFaultAnswersAsEachAPIDoes(t *testing.T) {
	tests := []struct {
		name                 string
		fault                Fault
		wantECRCode          string
		wantECRStatus        int
		wantAgentCoreCode    string
		wantAgentCoreStatus  int
		wantAgentCoreModeled any
	}{
		{"throttling", Fault{Count: 2, Status: 429}, "ThrottlingException", 400, "ThrottlingException", 429, new(*agentcoretypes.ThrottlingException)},
		{"server error", Fault{Count: 2, Status: 500}, "ServerException", 500, "InternalServerException", 500, new(*agentcoretypes.InternalServerException)},
		{"unavailable", Fault{Count: 2, Status: 503}, "ServiceUnavailable", 503, "ServiceUnavailable", 503, nil},
		{"chosen code", Fault{Count: 2, Status: 502, Code: "BadGateway"}, "BadGateway", 502, "BadGateway", 502, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEmulator(t)
			e.SeedCodeInterpreter(SystemCodeInterpreterID, "READY")
			if err := e.InjectFault(tt.fault); err != nil {
				t.Fatal(err)
			}
			_, ecrErr := ecrClient(e, "us-east-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{})
			if apiErrorCode(ecrErr) != tt.wantECRCode || httpStatus(ecrErr) != tt.wantECRStatus {
				t.Errorf("ECR: %v, want %s (%d)", ecrErr, tt.wantECRCode, tt.wantECRStatus)
			}
			_, acErr := agentCoreClient(e, "us-east-1", testKeyID, testSecret).GetCodeInterpreter(t.Context(),
				&bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(SystemCodeInterpreterID)})
			if apiErrorCode(acErr) != tt.wantAgentCoreCode || httpStatus(acErr) != tt.wantAgentCoreStatus {
				t.Errorf("AgentCore: %v, want %s (%d)", acErr, tt.wantAgentCoreCode, tt.wantAgentCoreStatus)
			}
			if tt.wantAgentCoreModeled != nil && !errors.As(acErr, tt.wantAgentCoreModeled) {
				t.Errorf("AgentCore: %T is not the modeled %T", acErr, tt.wantAgentCoreModeled)
			}
			// Both faults are used up: the next requests are answered normally.
			if _, err := ecrClient(e, "us-east-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err != nil {
				t.Errorf("after the faults: %v", err)
			}
		})
	}
}

func TestFaultForOneOperationAndEchoedBody(t *testing.T) {
	e := newEmulator(t)
	e.SeedCodeInterpreter(SystemCodeInterpreterID, "READY")
	if err := e.InjectFault(Fault{Count: 1, Status: 500, Operation: "GetAuthorizationToken", EchoBody: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := agentCoreClient(e, "us-east-1", testKeyID, testSecret).GetCodeInterpreter(t.Context(),
		&bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(SystemCodeInterpreterID)}); err != nil {
		t.Fatalf("a fault for ECR must not touch AgentCore: %v", err)
	}
	_, err := ecrClient(e, "us-east-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(),
		&ecr.GetAuthorizationTokenInput{RegistryIds: []string{"210987654321"}}) //nolint:staticcheck // deprecated, but a body to echo
	if apiErrorCode(err) != "ServerException" || !strings.Contains(err.Error(), `{"registryIds":["210987654321"]}`) {
		t.Errorf("want a ServerException quoting the body, got %v", err)
	}
	reqs := e.Requests()
	if last := reqs[len(reqs)-1]; last.ErrorCode != "ServerException" || last.AccessKeyID != testKeyID || last.Region != "us-east-1" {
		t.Errorf("recorded %+v", last)
	}
}

func TestInjectFaultRejectsWhatAWSNeverSends(t *testing.T) {
	e := New(Options{})
	for _, f := range []Fault{{Count: 0, Status: 503}, {Count: 1, Status: 404}, {Count: 1, Status: 200}} {
		if err := e.InjectFault(f); err == nil {
			t.Errorf("InjectFault(%+v) accepted", f)
		}
	}
}
