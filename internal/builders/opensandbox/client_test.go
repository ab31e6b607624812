package opensandbox

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

func TestRetriesAreBoundedAndOnlyWhereSafe(t *testing.T) {
	ctx := context.Background()
	t.Run("idempotent lookups retry 5xx and 429", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{})
		h.emu.InjectFault(opensandboxemu.Fault{Method: "GET", PathPrefix: "/snapshots", Status: 503, Count: 2})
		h.emu.InjectFault(opensandboxemu.Fault{Method: "GET", PathPrefix: "/snapshots", Status: 429, Count: 1, RetryAfter: "0"})
		if _, err := h.b.IsUsable(ctx, "py"); err != nil {
			t.Fatal(err)
		}
		if n := h.count("GET", "/snapshots"); n != 4 {
			t.Errorf("%d GETs, want 3 failures and 1 success", n)
		}
	})
	t.Run("give up after the budget", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{})
		h.emu.InjectFault(opensandboxemu.Fault{Method: "GET", PathPrefix: "/snapshots", Status: 500, Count: 100})
		_, err := h.b.IsUsable(ctx, "py")
		if err == nil || !strings.Contains(err.Error(), "HTTP 500") || h.count("GET", "/snapshots") != maxAttempts {
			t.Errorf("err = %v after %d attempts, want HTTP 500 after %d", err, h.count("GET", "/snapshots"), maxAttempts)
		}
	})
	t.Run("a create is retried on 429 only", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{})
		h.emu.InjectFault(opensandboxemu.Fault{Method: "POST", PathPrefix: "/sandboxes", Status: 429, Count: 1})
		if got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{}); got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %+v", got)
		}
		if n := len(h.emu.Sandboxes()); n != 1 {
			t.Errorf("%d sandboxes created, want 1", n)
		}

		h2 := newHarness(t, opensandboxemu.Options{})
		h2.emu.InjectFault(opensandboxemu.Fault{Method: "POST", PathPrefix: "/sandboxes", Status: 502, Count: 1})
		got := builders.Ensure(ctx, h2.b, spec("py"), builders.Observer{})
		assertFailed(t, got, builders.StageTemplateCreate, "HTTP 502")
		if n := h2.count("POST", "/sandboxes"); n != 1 {
			t.Errorf("a 5xx create was sent %d times; it must not be retried", n)
		}
	})
	t.Run("cleanup survives a transient delete failure", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{})
		h.emu.InjectFault(opensandboxemu.Fault{Method: "DELETE", PathPrefix: "/sandboxes/", Status: 503, Count: 2})
		if got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{}); got.Status != builders.StatusSuccess {
			t.Fatalf("Ensure = %+v", got)
		}
		h.assertAllSandboxesDeleted(t)
	})
}

func TestValidationErrorsNeverEchoTheInput(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	// No entrypoint: the server rejects the body with FastAPI's 422, which echoes the input.
	_, err := h.b.api.createSandbox(context.Background(), createSandboxRequest{
		Image:          imageSpec{URI: "python:3.12", Auth: &imageAuth{Username: "u", Password: builders.NewSecret("s3cret-in-body")}},
		ResourceLimits: DefaultResourceLimits, Timeout: 60,
	})
	e, ok := apihttp.AsError(err)
	if !ok || e.StatusCode != http.StatusUnprocessableEntity || len(e.Details) == 0 {
		t.Fatalf("err = %v, want a parsed 422", err)
	}
	if !strings.Contains(err.Error(), "body.entrypoint: Value error, entrypoint is required") {
		t.Errorf("the 422 detail should name the field: %v", err)
	}
	if strings.Contains(err.Error(), "s3cret-in-body") {
		t.Errorf("the echoed input leaked the password: %v", err)
	}
}

func TestReadCommandStreamFormats(t *testing.T) {
	for _, tt := range []struct {
		name, stream string
		want         commandResult
		wantErr      bool
	}{
		{"execd raw JSON blocks", "{\"type\":\"init\",\"text\":\"c1\"}\n\n{\"type\":\"stdout\",\"text\":\"ok\\n\"}\n\n{\"type\":\"execution_complete\"}\n\n",
			commandResult{Output: []string{"ok"}}, false},
		{"SSE data lines", "event: stdout\ndata: {\"type\":\"stdout\",\"text\":\"hi\"}\n\n: comment\ndata: {\"type\":\"execution_complete\"}\n\n",
			commandResult{Output: []string{"hi"}}, false},
		{"non-zero exit", "{\"type\":\"stderr\",\"text\":\"boom\"}\n\n{\"type\":\"error\",\"error\":{\"ename\":\"CommandExecError\",\"evalue\":\"3\"}}\n\n",
			commandResult{ExitCode: 3, Error: "exit code 3", Output: []string{"stderr: boom"}}, false},
		{"start failure", "{\"type\":\"error\",\"error\":{\"ename\":\"CommandExecError\",\"evalue\":\"exec: not found\"}}\n\n",
			commandResult{ExitCode: -1, Error: "CommandExecError: exec: not found"}, false},
		{"cut short", "{\"type\":\"stdout\",\"text\":\"half\"}\n\n", commandResult{Output: []string{"half"}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readCommandStream(strings.NewReader(tt.stream))
			if (err != nil) != tt.wantErr || got.ExitCode != tt.want.ExitCode || got.Error != tt.want.Error ||
				strings.Join(got.Output, "|") != strings.Join(tt.want.Output, "|") {
				t.Errorf("got %+v, %v; want %+v (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// A server or proxy that echoes the request in its error message must not get the registry
// password into the result: the create body is the one request that carries it.
func TestEchoedRequestBodiesNeverLeakTheRegistryPassword(t *testing.T) {
	const password = "echoed-registry-pa55"
	h := newHarness(t, opensandboxemu.Options{})
	h.emu.InjectFault(opensandboxemu.Fault{Method: "POST", PathPrefix: "/sandboxes", Status: 502, Count: 1, EchoBody: true})
	auth := &builders.BasicAuth{Username: "robot", Password: builders.NewSecret(password)}
	s := spec("echo")
	s.RegistryAuth = auth
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	assertFailed(t, got, builders.StageTemplateCreate, "HTTP 502")
	if !strings.Contains(got.Detail, "request body") {
		t.Fatalf("the echoed message should still be reported, redacted: %s", got.Detail)
	}
	assertNoSecret(t, got, password)
}

// TestReadCommandStreamKeepsItsTail: a pip run printing 200k lines (and one endless progress
// line) keeps a bounded tail in memory, and counts what it dropped.
func TestReadCommandStreamKeepsItsTail(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		for i := range 200_000 {
			_, _ = fmt.Fprintf(pw, "{\"type\":\"stdout\",\"text\":\"Collecting pkg-%d\\n\"}\n\n", i)
		}
		_, _ = fmt.Fprintf(pw, "{\"type\":\"stdout\",\"text\":%q}\n\n", strings.Repeat("#", 1<<20))
		_, _ = fmt.Fprint(pw, "{\"type\":\"execution_complete\"}\n\n")
		_ = pw.Close()
	}()
	got, err := readCommandStream(pr)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Output) != maxCommandOutputLines || got.Omitted != 200_001-maxCommandOutputLines {
		t.Fatalf("kept %d lines, omitted %d; want the last %d and a count of the rest", len(got.Output), got.Omitted, maxCommandOutputLines)
	}
	if last := got.Output[len(got.Output)-1]; len(last) > builders.KeptLogLineBytes {
		t.Errorf("the last line kept %d bytes, want at most %d", len(last), builders.KeptLogLineBytes)
	}
	if got.Output[0] != "Collecting pkg-199801" {
		t.Errorf("first kept line = %q, want the tail", got.Output[0])
	}
}
