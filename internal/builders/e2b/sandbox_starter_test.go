package e2b

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// newCheckBuilder is a Builder whose sandboxes' envd is the emulator's (E2B_SANDBOX_URL), and a
// build of a template whose steps leave user app in /srv with requests installed.
func newCheckBuilder(t *testing.T, emu *e2bemu.Server) (*Builder, builders.TemplateBuildResult) {
	t.Helper()
	b := newTestBuilder(t, emu, func(c *Config) { c.SandboxURL = emu.URL })
	user, workdir, nothing := "app", "/srv", ""
	result := mustBuild(t, b, builders.TemplateSpec{TemplateID: "checked", Image: "python:3.12", StartCmd: &nothing,
		Steps: []builders.BuildStep{{Pip: &builders.PipStep{Packages: []string{"requests"}}}, {User: &user}, {Workdir: &workdir}}})
	return b, result
}

func startSandbox(t *testing.T, b *Builder, req builders.SandboxRequest) builders.Sandbox {
	t.Helper()
	sbx, err := b.StartSandbox(t.Context(), req)
	if err != nil {
		t.Fatalf("StartSandbox: %v", err)
	}
	return sbx
}

func run(t *testing.T, sbx builders.Sandbox, command string) builders.CommandOutcome {
	t.Helper()
	outcome, err := sbx.Run(t.Context(), command)
	if err != nil {
		t.Fatalf("Run(%q): %v", command, err)
	}
	return outcome
}

// TestCheckSandboxRunsAsAConsumersSandbox: a check's sandbox starts from exactly the build it names
// (not the one the plain name starts), with the request's env, timeout and metadata, and its
// commands run through envd as the template's user, in its workdir, with what the build installed;
// a failing command is an outcome with its exit code and output. The sandbox is secure, as the
// SDKs ask: envd gets its access token, never the API key.
func TestCheckSandboxRunsAsAConsumersSandbox(t *testing.T) {
	emu := newEmulator(t)
	b, first := newCheckBuilder(t, emu)
	nothing := ""
	second := mustBuild(t, b, builders.TemplateSpec{TemplateID: "checked", Image: "python:3.12", StartCmd: &nothing}) // now the live build

	if second.BuildID == first.BuildID {
		t.Fatal("the second build was adopted, want a new one")
	}
	sbx := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: first.BuildID,
		Env: map[string]string{"GREETING": "hello"}, Lifetime: 90 * time.Second, Labels: map[string]string{"sandbox-tf-check": "smoke"}})
	info, ok := emu.Sandbox(sbx.ID())
	if !ok || info.BuildID != first.BuildID || info.Metadata["sandbox-tf-check"] != "smoke" {
		t.Fatalf("the sandbox is %+v (running %v), want build %s with the check's metadata", info, ok, first.BuildID)
	}
	var created struct {
		TemplateID string `json:"templateID"`
		Timeout    int    `json:"timeout"`
	}
	for _, r := range emu.Requests() {
		if r.Method == http.MethodPost && r.Path == "/sandboxes" {
			_ = json.Unmarshal(r.Body, &created)
		}
	}
	if created.TemplateID != "checked:"+first.BuildID || created.Timeout != 90 {
		t.Errorf("POST /sandboxes sent %+v, want templateID checked:<build id> and timeout 90", created)
	}

	for command, want := range map[string]builders.CommandOutcome{
		`echo "$GREETING $(id -un) $PWD"`:        {ExitCode: 0, Output: []byte("hello app /srv\n")},
		`python -c "import requests" && echo ok`: {ExitCode: 0, Output: []byte("ok\n")},
		`echo partial; echo broken >&2; exit 3`:  {ExitCode: 3, Output: []byte("partial\nbroken\n")},
		`python -c "import polars"`:              {ExitCode: 1},
		`definitely-not-installed --version`:     {ExitCode: 127},
	} {
		got := run(t, sbx, command)
		if got.ExitCode != want.ExitCode || (want.Output != nil && !bytes.Equal(got.Output, want.Output)) {
			t.Errorf("Run(%q) = %d %q, want %d %q", command, got.ExitCode, got.Output, want.ExitCode, want.Output)
		}
	}
	asked := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: first.BuildID, User: "root", Workdir: "/tmp"})
	if got := run(t, asked, `echo "$(id -un) $PWD"`); string(got.Output) != "root /tmp\n" {
		t.Errorf("with User root and Workdir /tmp the command printed %q, want \"root /tmp\"", got.Output)
	}
	for _, r := range emu.Requests() {
		if r.Path == "/process.Process/Start" && (r.Header.Get("X-API-Key") != "" || r.Header.Get("E2b-Sandbox-Id") == "" ||
			r.Header.Get("X-Access-Token") != "[REDACTED]") {
			t.Errorf("envd was sent X-API-Key %q, E2b-Sandbox-Id %q and X-Access-Token %q, want no API key, the sandbox and its access token",
				r.Header.Get("X-API-Key"), r.Header.Get("E2b-Sandbox-Id"), r.Header.Get("X-Access-Token"))
		}
	}
}

// TestCheckOutputIsBounded: a command that prints 10 MiB leaves the last MaxCheckOutputBytes.
// (The model's shell has no yes or head -c: 16 chars doubled 16 times is 1 MiB, printed 10 times.)
func TestCheckOutputIsBounded(t *testing.T) {
	emu := newEmulator(t)
	b, result := newCheckBuilder(t, emu)
	sbx := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: result.BuildID})
	got := run(t, sbx, `s=0123456789abcdef; for i in $(seq 16); do s=$s$s; done; for i in $(seq 10); do printf %s "$s"; done; echo " end"`)
	if got.ExitCode != 0 || len(got.Output) != builders.MaxCheckOutputBytes || !bytes.HasSuffix(got.Output, []byte("cdef end\n")) {
		t.Errorf("Run kept %d bytes ending %q (exit %d), want the last %d ending in \"end\"", len(got.Output), got.Output[max(0, len(got.Output)-8):], got.ExitCode, builders.MaxCheckOutputBytes)
	}
}

// TestCheckSandboxEnds: Close kills the sandbox, and closing it again is not an error; a sandbox
// nobody closes (the CLI was killed) ends when its lifetime has passed, by the backend's clock.
func TestCheckSandboxEnds(t *testing.T) {
	clock := &testClock{now: time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)}
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testAPIKey, Clock: clock.Now})
	b, result := newCheckBuilder(t, emu)

	closed := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: result.BuildID})
	if err := closed.Close(t.Context()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if info, running := emu.Sandbox(closed.ID()); running {
		t.Errorf("after Close the emulator still runs %+v", info)
	}
	if err := closed.Close(t.Context()); err != nil {
		t.Errorf("closing a closed sandbox: %v, want nil", err)
	}

	forgotten := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: result.BuildID, Lifetime: 10 * time.Minute})
	clock.Add(10*time.Minute - time.Second)
	if _, running := emu.Sandbox(forgotten.ID()); !running {
		t.Fatal("the sandbox ended before its lifetime")
	}
	clock.Add(time.Second)
	if info, running := emu.Sandbox(forgotten.ID()); running {
		t.Errorf("past its lifetime the emulator still runs %+v", info)
	}
	if _, err := forgotten.Run(t.Context(), "true"); err == nil {
		t.Error("Run in a sandbox that timed out succeeded, want an error")
	}
	if err := forgotten.Close(t.Context()); err != nil {
		t.Errorf("closing a sandbox that timed out: %v, want nil", err)
	}
}

// TestCheckNeedsABuildID: a check starts one exact build, named by its id or by its whole build_ref
// value; anything else (a tag, another template's build) is refused before a request.
func TestCheckNeedsABuildID(t *testing.T) {
	emu := newEmulator(t)
	b, result := newCheckBuilder(t, emu)
	sent := len(emu.Requests())
	for _, build := range []string{"", "default", "checked:default", "other:" + result.BuildID} {
		if _, err := b.StartSandbox(t.Context(), builders.SandboxRequest{TemplateID: "checked", Build: build}); builders.StageOf(err, "") != builders.StageValidation {
			t.Errorf("StartSandbox(build %q) = %v, want a validation error", build, err)
		}
	}
	if n := len(emu.Requests()) - sent; n != 0 {
		t.Errorf("%d requests, want none", n)
	}
	for _, req := range []builders.SandboxRequest{{TemplateID: "checked", Build: "checked:" + result.BuildID}, {Build: "checked:" + result.BuildID}} {
		sbx := startSandbox(t, b, req)
		if info, _ := emu.Sandbox(sbx.ID()); info.BuildID != result.BuildID {
			t.Errorf("StartSandbox(%+v) started %+v, want build %s", req, info, result.BuildID)
		}
	}
}

// TestEnvdRedirectIsRefused: commands and the access token go only to the configured envd.
func TestEnvdRedirectIsRefused(t *testing.T) {
	var elsewhere sync.Map
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Store(r.URL.Path, true) }))
	defer other.Close()
	redirecting := httptest.NewServer(http.RedirectHandler(other.URL+"/process.Process/Start", http.StatusTemporaryRedirect))
	defer redirecting.Close()
	emu := newEmulator(t)
	b, result := newCheckBuilder(t, emu)
	b.envd.sandboxURL = mustParseURL(t, redirecting.URL)
	sbx := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: result.BuildID})
	if _, err := sbx.Run(t.Context(), "true"); err == nil || !strings.Contains(err.Error(), "refused a redirect") {
		t.Errorf("Run through a redirect = %v, want it refused", err)
	}
	if _, sent := elsewhere.Load("/process.Process/Start"); sent {
		t.Error("the command was sent to the redirect's target")
	}
}

// TestEnvdAddress: where the SDKs reach a sandbox's envd, and who commands run as.
func TestEnvdAddress(t *testing.T) {
	for _, c := range []struct {
		config   envdConfig
		answered string
		want     string
	}{
		{envdConfig{domain: DefaultDomain}, "", "https://sandbox.e2b.app"},
		{envdConfig{domain: "e2b.example.com"}, "", "https://49983-isbx.e2b.example.com"},
		{envdConfig{domain: "e2b.example.com"}, "e2b.dev", "https://sandbox.e2b.dev"},
		{envdConfig{domain: DefaultDomain, sandboxURL: mustParseURL(t, "http://localhost:3002")}, "e2b.dev", "http://localhost:3002"},
	} {
		if got := c.config.baseURL("isbx", c.answered); got != c.want {
			t.Errorf("%+v, domain answered %q: %s, want %s", c.config, c.answered, got, c.want)
		}
	}
	for envdVersion, want := range map[string]string{"0.6.13": "", "0.3.9": "Basic dXNlcjo="} {
		e := envdConfig{domain: DefaultDomain}.envdFor(createdSandbox{SandboxID: "isbx", EnvdVersion: envdVersion}, "")
		if got := e.header.Get("Authorization"); got != want {
			t.Errorf("envd %s: Authorization %q, want %q (the SDKs' user below 0.4.0)", envdVersion, got, want)
		}
	}
	e := envdConfig{domain: DefaultDomain}.envdFor(createdSandbox{SandboxID: "isbx", EnvdVersion: "0.6.13", EnvdAccessToken: "tok"}, "root")
	if e.header.Get("X-Access-Token") != "tok" || e.header.Get("Authorization") != "Basic cm9vdDo=" {
		t.Errorf("a secure sandbox, user root: %v", e.header)
	}
}

func mustParseURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// testClock is a clock the test moves by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestCheckCommandThatHangs: a command that never ends (a server, sleep infinity) holds its stream
// open until the check's context ends it; Run then fails with the context's error, and the sandbox
// still ends.
func TestCheckCommandThatHangs(t *testing.T) {
	emu := newEmulator(t)
	b, result := newCheckBuilder(t, emu)
	sbx := startSandbox(t, b, builders.SandboxRequest{TemplateID: "checked", Build: result.BuildID})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if outcome, err := sbx.Run(ctx, "sleep infinity"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run(sleep infinity) = %+v, %v; want the deadline's error", outcome, err)
	}
	if err := sbx.Close(ctx); err != nil { // the context has ended: Close runs on
		t.Errorf("Close after the deadline: %v", err)
	}
	if _, running := emu.Sandbox(sbx.ID()); running {
		t.Error("the sandbox still runs")
	}
}

// BenchmarkCheckTrue is what one check of `true` costs against the emulator, from the sandbox's
// start to the command's result and the sandbox's end.
func BenchmarkCheckTrue(b *testing.B) {
	emu := e2bemu.NewTestServer(b, e2bemu.Options{APIKey: testAPIKey})
	builder, err := New(Config{APIKey: builders.NewSecret(testAPIKey), APIURL: emu.URL, SandboxURL: emu.URL})
	if err != nil {
		b.Fatal(err)
	}
	nothing := ""
	result, err := builder.Build(b.Context(), builders.TemplateSpec{TemplateID: "bench", Image: "python:3.12", StartCmd: &nothing}, builders.Observer{})
	if err != nil || result.Status != builders.StatusSuccess {
		b.Fatalf("Build = %+v, %v", result, err)
	}
	for b.Loop() {
		sbx, err := builder.StartSandbox(b.Context(), builders.SandboxRequest{TemplateID: "bench", Build: result.BuildID})
		if err != nil {
			b.Fatal(err)
		}
		if outcome, err := sbx.Run(b.Context(), "true"); err != nil || outcome.ExitCode != 0 {
			b.Fatalf("Run(true) = %+v, %v", outcome, err)
		}
		if err := sbx.Close(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}
