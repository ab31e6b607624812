package bedrock

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
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
	target, _ := url.Parse(e.DataPlaneURL)
	slow := httputil.NewSingleHostReverseProxy(target)
	slow.FlushInterval = -1
	slow.ModifyResponse = func(resp *http.Response) error {
		if strings.HasSuffix(resp.Request.URL.Path, "/tools/invoke") {
			resp.Body = &lateBody{ReadCloser: resp.Body, delay: 2 * timeout}
		}
		return nil
	}
	proxy := httptest.NewServer(slow)
	t.Cleanup(proxy.Close)
	sbx, err := open(proxy.URL).StartSandbox(context.Background(), builders.SandboxRequest{Build: SystemCodeInterpreterID})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sbx.Close(context.Background()) }()
	if out, err := sbx.Run(context.Background(), "echo done"); err != nil || string(out.Output) != "done\n" {
		t.Errorf("a command whose result comes after the request timeout: %q, %v", out.Output, err)
	}
}

// lateBody is a body whose first read comes after delay.
type lateBody struct {
	io.ReadCloser
	delay time.Duration
	read  bool
}

func (b *lateBody) Read(p []byte) (int, error) {
	if !b.read {
		b.read = true
		time.Sleep(b.delay)
	}
	return b.ReadCloser.Read(p)
}

func starter(t *testing.T, b builders.Builder) builders.SandboxStarter {
	t.Helper()
	s, ok := b.(builders.SandboxStarter)
	if !ok {
		t.Fatalf("%T is not a builders.SandboxStarter", b)
	}
	return s
}
