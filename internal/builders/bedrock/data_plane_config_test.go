package bedrock

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

// TestDataEndpointSources: the data plane's endpoint comes from the provider setting or, left
// unset, AWS_ENDPOINT_URL_BEDROCK_AGENTCORE; the control plane's never stands in for it.
func TestDataEndpointSources(t *testing.T) {
	for _, tt := range []struct {
		name     string
		settings func(e *awsemu.Emulator) map[string]string
	}{
		{"setting", func(e *awsemu.Emulator) map[string]string {
			t.Setenv("AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", "http://127.0.0.1:1")
			return map[string]string{settingDataEndpoint.Path: e.DataPlaneURL}
		}},
		{"AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", func(e *awsemu.Emulator) map[string]string {
			t.Setenv("AWS_ENDPOINT_URL_BEDROCK_AGENTCORE", e.DataPlaneURL)
			return map[string]string{}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			isolateAWS(t)
			e := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: envKeyID, SecretAccessKey: envSecret})
			settings := tt.settings(e)
			settings[settingEndpoint.Path] = e.URL
			b, err := Backend.Open(t.Context(), builders.Env{Settings: builders.Settings{Values: settings}})
			if err != nil {
				t.Fatal(err)
			}
			sbx, err := starter(t, b).StartSandbox(t.Context(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
			if err != nil {
				t.Fatal(err)
			}
			if err := sbx.Close(t.Context()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRequestTimeoutBoundsTheWaitNotTheCommand: request_timeout ends a data plane that never
// answers, but not a command that runs longer than it once its answer has started.
func TestRequestTimeoutBoundsTheWaitNotTheCommand(t *testing.T) {
	const timeout = 200 * time.Millisecond
	isolateAWS(t)
	e := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: envKeyID, SecretAccessKey: envSecret})
	open := func(dataEndpoint string) builders.SandboxStarter {
		b, err := Backend.Open(t.Context(), builders.Env{RequestTimeout: timeout, Settings: builders.Settings{Values: map[string]string{
			settingRegion.Path: "us-east-1", settingEndpoint.Path: e.URL, settingDataEndpoint.Path: dataEndpoint}}})
		if err != nil {
			t.Fatal(err)
		}
		return starter(t, b)
	}

	hung := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices the client leave once the body is read
		<-r.Context().Done()
	}))
	t.Cleanup(hung.Close)
	if _, err := open(hung.URL).StartSandbox(context.Background(), builders.SandboxRequest{Build: SystemCodeInterpreterID}); err == nil {
		t.Fatal("a start against a data plane that never answers succeeded")
	}

	// A command's result comes twice the request timeout after its answer started.
	e.SetCommandDuration(2 * timeout)
	sbx, err := open(e.DataPlaneURL).StartSandbox(context.Background(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sbx.Close(context.Background()) }()
	if out, err := sbx.Run(context.Background(), "echo done"); err != nil || string(out.Output) != "done\n" {
		t.Errorf("a command whose result comes after the request timeout: %q, %v", out.Output, err)
	}
}

// TestInterruptedRunLeavesNoSession: a check interrupted while its command runs (Ctrl-C) ends
// Run with the context's error, and Close, on a context of its own, leaves no session running.
func TestInterruptedRunLeavesNoSession(t *testing.T) {
	isolateAWS(t)
	e := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: envKeyID, SecretAccessKey: envSecret})
	e.SetCommandDuration(time.Hour)
	b, err := New(t.Context(), Config{Endpoint: e.URL, DataEndpoint: e.DataPlaneURL})
	if err != nil {
		t.Fatal(err)
	}
	sbx, err := b.StartSandbox(t.Context(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
	if err != nil {
		t.Fatal(err)
	}
	ctx, interrupt := context.WithCancel(t.Context())
	ran := make(chan error, 1)
	go func() {
		_, err := sbx.Run(ctx, "echo never seen")
		ran <- err
	}()
	for !slices.ContainsFunc(e.Requests(), func(r awsemu.Request) bool { return r.Operation == "InvokeCodeInterpreter" }) {
		runtime.Gosched() // the command has started once its request is recorded
	}
	interrupt()
	if err := <-ran; !errors.Is(err, context.Canceled) {
		t.Errorf("an interrupted Run: %v", err)
	}
	if err := sbx.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if live := e.CodeInterpreterSessions(); len(live) != 0 {
		t.Errorf("live sessions after an interrupted check: %+v", live)
	}
}

func starter(t *testing.T, b builders.Builder) builders.SandboxStarter {
	t.Helper()
	s, ok := b.(builders.SandboxStarter)
	if !ok {
		t.Fatalf("%T is not a builders.SandboxStarter", b)
	}
	return s
}
