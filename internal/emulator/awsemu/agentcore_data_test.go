package awsemu

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore/types"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
)

func dataPlaneClient(baseURL string) *bedrockagentcore.Client {
	return bedrockagentcore.New(bedrockagentcore.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(baseURL), RetryMaxAttempts: 1,
		Credentials: credentials.NewStaticCredentialsProvider(testKeyID, testSecret, ""),
	})
}

func startInput(timeout int32) *bedrockagentcore.StartCodeInterpreterSessionInput {
	return &bedrockagentcore.StartCodeInterpreterSessionInput{CodeInterpreterIdentifier: aws.String(SystemCodeInterpreterID),
		SessionTimeoutSeconds: aws.Int32(timeout)}
}

// TestPlanesAnswerOnTheirOwnURLs: AWS serves the control and data planes on hosts of their own,
// so each operation is unknown at the other's URL.
func TestPlanesAnswerOnTheirOwnURLs(t *testing.T) {
	e := newEmulator(t)
	_, err := dataPlaneClient(e.URL).StartCodeInterpreterSession(t.Context(), startInput(60))
	if apiErrorCode(err) != "UnknownOperationException" {
		t.Errorf("StartCodeInterpreterSession at the control plane's URL: %v", err)
	}
	control := bedrockagentcorecontrol.New(bedrockagentcorecontrol.Options{Region: "us-east-1", BaseEndpoint: aws.String(e.DataPlaneURL),
		RetryMaxAttempts: 1, Credentials: credentials.NewStaticCredentialsProvider(testKeyID, testSecret, "")})
	_, err = control.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String(SystemCodeInterpreterID)})
	if apiErrorCode(err) != "UnknownOperationException" {
		t.Errorf("GetCodeInterpreter at the data plane's URL: %v", err)
	}
	if live := e.CodeInterpreterSessions(); len(live) != 0 {
		t.Errorf("live sessions %+v", live)
	}
}

// TestStartValidatesAsTheAPIReferenceSays: sessionTimeoutSeconds 1 to 28800, a name of 1 to 100
// characters; refused as FieldValidationFailed naming the member.
func TestStartValidatesAsTheAPIReferenceSays(t *testing.T) {
	e := newEmulator(t)
	client := dataPlaneClient(e.DataPlaneURL)
	for _, in := range []*bedrockagentcore.StartCodeInterpreterSessionInput{
		startInput(0), startInput(28801),
		{CodeInterpreterIdentifier: aws.String(SystemCodeInterpreterID), Name: aws.String("")},
	} {
		_, err := client.StartCodeInterpreterSession(t.Context(), in)
		var invalid *types.ValidationException
		if !errors.As(err, &invalid) || invalid.Reason != types.ValidationExceptionReasonFieldValidationFailed || len(invalid.FieldList) != 1 {
			t.Errorf("%+v: %v", in, err)
		}
	}
	for _, timeout := range []int32{1, 28800} {
		if _, err := client.StartCodeInterpreterSession(t.Context(), startInput(timeout)); err != nil {
			t.Errorf("sessionTimeoutSeconds %d: %v", timeout, err)
		}
	}
}

// TestStartIsIdempotentByClientToken: a start retried with its token (the SDK fills one in and
// keeps it across retries) returns the first session; the token with other parameters is refused.
func TestStartIsIdempotentByClientToken(t *testing.T) {
	e := newEmulator(t)
	client := dataPlaneClient(e.DataPlaneURL)
	in := startInput(60)
	in.ClientToken = aws.String("retried-0123456789abcdef0123456789abcdef")
	first, err := client.StartCodeInterpreterSession(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	again, err := client.StartCodeInterpreterSession(t.Context(), in)
	if err != nil || aws.ToString(again.SessionId) != aws.ToString(first.SessionId) || len(e.CodeInterpreterSessions()) != 1 {
		t.Fatalf("retried start: %+v, %v; live %+v", again, err, e.CodeInterpreterSessions())
	}
	in.SessionTimeoutSeconds = aws.Int32(120)
	_, err = client.StartCodeInterpreterSession(t.Context(), in)
	var invalid *types.ValidationException
	if !errors.As(err, &invalid) || invalid.Reason != types.ValidationExceptionReasonIdempotentParameterMismatchException {
		t.Errorf("the token with another timeout: %v", err)
	}
}

// TestInvokeRefusesWhatItCannotRun: a tool name outside the model is a ValidationException, a
// tool the emulator does not run says so, executeCommand needs a command and a live session.
func TestInvokeRefusesWhatItCannotRun(t *testing.T) {
	e := newEmulator(t)
	client := dataPlaneClient(e.DataPlaneURL)
	started, err := client.StartCodeInterpreterSession(t.Context(), startInput(60))
	if err != nil {
		t.Fatal(err)
	}
	invoke := func(name types.ToolName, args *types.ToolArguments, sessionID *string) error {
		_, err := client.InvokeCodeInterpreter(t.Context(), &bedrockagentcore.InvokeCodeInterpreterInput{
			CodeInterpreterIdentifier: aws.String(SystemCodeInterpreterID), SessionId: sessionID, Name: name, Arguments: args})
		return err
	}
	for _, tt := range []struct {
		name      types.ToolName
		args      *types.ToolArguments
		sessionID *string
		code      string
	}{
		{"runEverything", &types.ToolArguments{Command: aws.String("true")}, started.SessionId, "ValidationException"},
		{types.ToolNameExecuteCode, &types.ToolArguments{Code: aws.String("1")}, started.SessionId, "UnknownOperationException"},
		{types.ToolNameExecuteCommand, &types.ToolArguments{}, started.SessionId, "ValidationException"},
		{types.ToolNameExecuteCommand, &types.ToolArguments{Command: aws.String("true")}, nil, "ValidationException"},
		{types.ToolNameExecuteCommand, &types.ToolArguments{Command: aws.String("true")}, aws.String("NOSUCHSESSION"), "ResourceNotFoundException"},
	} {
		if err := invoke(tt.name, tt.args, tt.sessionID); apiErrorCode(err) != tt.code {
			t.Errorf("%s %+v: %v, want %s", tt.name, tt.args, err, tt.code)
		}
	}
}

// TestSessionsExpireOnTheEmulatorsClock: a session is live until its sessionTimeoutSeconds have
// passed, then listed nowhere and not found.
func TestSessionsExpireOnTheEmulatorsClock(t *testing.T) {
	var mu sync.Mutex
	now := fixedNow
	e := NewTestServer(t, Options{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	client := dataPlaneClient(e.DataPlaneURL)
	started, err := client.StartCodeInterpreterSession(t.Context(), startInput(60))
	if err != nil {
		t.Fatal(err)
	}
	if live := e.CodeInterpreterSessions(); len(live) != 1 || !live[0].ExpiresAt.Equal(fixedNow.Add(time.Minute)) {
		t.Fatalf("live %+v", live)
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	resp := control(t, e, http.MethodGet, "code-interpreter-sessions", "")
	var listed []CodeInterpreterSession
	if err := json.NewDecoder(resp.Body).Decode(&listed); err != nil || len(listed) != 0 {
		t.Errorf("GET %scode-interpreter-sessions after the timeout: %+v, %v", ControlPrefix, listed, err)
	}
	_, err = client.StopCodeInterpreterSession(t.Context(), &bedrockagentcore.StopCodeInterpreterSessionInput{
		CodeInterpreterIdentifier: aws.String(SystemCodeInterpreterID), SessionId: started.SessionId})
	var notFound *types.ResourceNotFoundException
	if !errors.As(err, &notFound) {
		t.Errorf("stopping an expired session: %v", err)
	}
}

// TestInStreamFaultsNeedInvokeCodeInterpreter: only InvokeCodeInterpreter answers with a stream.
func TestInStreamFaultsNeedInvokeCodeInterpreter(t *testing.T) {
	e := newEmulator(t)
	for _, operation := range []string{"", "StartCodeInterpreterSession"} {
		if err := e.InjectFault(Fault{Count: 1, Status: 500, Operation: operation, InStream: true}); err == nil {
			t.Errorf("an in-stream fault of operation %q was armed", operation)
		}
	}
}

// TestCommandDurationControl: PUT /_emulator/command-duration takes a Go duration of at least 0.
func TestCommandDurationControl(t *testing.T) {
	e := newEmulator(t)
	for body, want := range map[string]int{`{"duration":"2s"}`: http.StatusNoContent, `{"duration":"-1s"}`: http.StatusBadRequest,
		`{"duration":"soon"}`: http.StatusBadRequest} {
		if resp := control(t, e, http.MethodPut, "command-duration", body); resp.StatusCode != want {
			t.Errorf("%s answered %d, want %d", body, resp.StatusCode, want)
		}
	}
	if got := e.commandTakes(); got != 2*time.Second {
		t.Errorf("command duration %v, want 2s", got)
	}
}
