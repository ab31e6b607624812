package awsemu

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	agentcoretypes "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
)

// control calls a control path the way a script outside the process would: plain HTTP, unsigned.
func control(t *testing.T, e *Emulator, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, e.URL+ControlPrefix+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

func TestControlPaths(t *testing.T) {
	e := newEmulator(t)
	const id = "seeded-a1b2c3d4e5"
	for _, s := range []struct{ method, path, body string }{
		{http.MethodPut, "code-interpreters/" + id, `{"status":"CREATE_FAILED","failureReason":"role validation failed"}`},
		{http.MethodPost, "faults", `{"count":1,"status":429,"operation":"GetAuthorizationToken"}`},
	} {
		if resp := control(t, e, s.method, s.path, s.body); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("%s %s answered %d", s.method, s.path, resp.StatusCode)
		}
	}
	_, ecrErr := ecrClient(e, "us-east-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{})
	if apiErrorCode(ecrErr) != "ThrottlingException" {
		t.Errorf("armed fault: got %v", ecrErr)
	}
	client := agentCoreClient(e, "us-east-1", testKeyID, testSecret)
	get := func() (*bedrockagentcorecontrol.GetCodeInterpreterOutput, error) {
		return client.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(id)})
	}
	out, err := get()
	if err != nil || out.Status != agentcoretypes.CodeInterpreterStatusCreateFailed || aws.ToString(out.FailureReason) != "role validation failed" {
		t.Fatalf("seeded interpreter: %+v, %v", out, err)
	}
	if resp := control(t, e, http.MethodPost, "deny", `{"operation":"GetCodeInterpreter"}`); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("deny answered %d", resp.StatusCode)
	}
	if _, err := get(); apiErrorCode(err) != "AccessDeniedException" {
		t.Errorf("denied operation: got %v", err)
	}

	resp := control(t, e, http.MethodGet, "requests", "")
	var reqs []Request
	if err := json.NewDecoder(resp.Body).Decode(&reqs); err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 3 || reqs[0].ErrorCode != "ThrottlingException" || reqs[1].ErrorCode != "" || reqs[2].ErrorCode != "AccessDeniedException" {
		t.Errorf("control paths are not recorded; want the 3 API requests, got %+v", reqs)
	}
}

func TestControlCredentials(t *testing.T) {
	e := newEmulator(t)
	if resp := control(t, e, http.MethodPost, "credentials", `{"accessKeyId":"AKIANEWKEY0000000001","secretAccessKey":"new-secret"}`); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("answered %d", resp.StatusCode)
	}
	if _, err := ecrClient(e, "us-east-1", testKeyID, testSecret).GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); apiErrorCode(err) != "UnrecognizedClientException" {
		t.Errorf("old key: %v", err)
	}
	if _, err := ecrClient(e, "us-east-1", "AKIANEWKEY0000000001", "new-secret").GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err != nil {
		t.Errorf("new key: %v", err)
	}
}

func TestControlRejectsBadRequests(t *testing.T) {
	e := newEmulator(t)
	for _, s := range []struct{ method, path, body string }{
		{http.MethodPost, "faults", `{"count":1,"status":404}`},
		{http.MethodPost, "faults", `{"count":1,"status":503,"unknown":true}`},
		{http.MethodPut, "code-interpreters/x-a1b2c3d4e5", `{}`},
		{http.MethodPost, "deny", `not json`},
	} {
		if resp := control(t, e, s.method, s.path, s.body); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s %s %s answered %d, want 400", s.method, s.path, s.body, resp.StatusCode)
		}
	}
	if resp := control(t, e, http.MethodGet, "nothing-here", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown control path answered %d", resp.StatusCode)
	}
}
