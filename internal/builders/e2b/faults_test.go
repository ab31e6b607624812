package e2b

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

func TestBuildSurvivesA5xxStormWithoutDuplicateBuilds(t *testing.T) {
	emu := newEmulator(t)
	emu.SetFaults(e2bemu.Faults{Rate: 0.4, Seed: 7, Status: []int{500, 502, 503}})
	b := newTestBuilder(t, emu)
	result := mustBuild(t, b, builders.TemplateSpec{TemplateID: "storm", Image: ciImage, Packages: []string{"numpy"}})
	if emu.InjectedFaults() == 0 {
		t.Fatal("no fault was injected: the test proves nothing")
	}
	onlyStart(t, emu) // exactly one build started
	if n := countLines(result.Logs, "Building template"); n != 1 {
		t.Errorf("first build log line seen %d times, want once", n)
	}
	emu.SetFaults(e2bemu.Faults{})
	if usable, err := b.IsUsable(t.Context(), "storm"); err != nil || !usable {
		t.Errorf("IsUsable = %v, %v", usable, err)
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	emu := newEmulator(t)
	emu.FailNext(1, http.StatusTooManyRequests) // the emulator sends Retry-After: 1
	b := newTestBuilder(t, emu)
	waits := recordWaits(b)
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "limited", Image: ciImage})
	if got := waits(); len(got) != 1 || got[0] != time.Second {
		t.Errorf("retry waits = %v, want one of 1s from Retry-After", got)
	}
	if sent := emu.Requests(); len(sent) < 2 || sent[0].Method+sent[0].Path != sent[1].Method+sent[1].Path {
		t.Errorf("requests %v: the refused first request must be sent again", sent)
	}
}

// TestRetriesAreBounded: an API that keeps failing fails the build at its first request (the
// look-up for a build of these inputs already running) after maxAttempts tries.
func TestRetriesAreBounded(t *testing.T) {
	emu := newEmulator(t)
	emu.FailNext(100, http.StatusServiceUnavailable)
	b := newTestBuilder(t, emu)
	waits := recordWaits(b)
	_, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "down", Image: ciImage}, builders.Observer{})
	if apihttp.StatusOf(err) != http.StatusServiceUnavailable || builders.StageOf(err, "") != builders.StageTemplateLookup {
		t.Fatalf("error = %v, want the 503 at TEMPLATE_LOOKUP", err)
	}
	if n := emu.CountRequests("", "/"); n != maxAttempts {
		t.Errorf("%d requests sent, want %d attempts", n, maxAttempts)
	}
	for i, w := range waits() {
		if exp := time.Millisecond << i; w < exp/2 || w > exp {
			t.Errorf("wait %d = %v, want a jittered delay in [%v, %v]", i, w, exp/2, exp)
		}
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	emu := newEmulator(t)
	emu.FailNext(1, http.StatusBadRequest)
	_, err := newTestBuilder(t, emu).Build(t.Context(), builders.TemplateSpec{TemplateID: "bad", Image: ciImage}, builders.Observer{})
	var apiErr *apihttp.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || apiErr.Code != "400" || apiErr.Message == "" {
		t.Fatalf("error = %v, want a typed 400", err)
	}
	if n := emu.CountRequests("", "/"); n != 1 {
		t.Errorf("%d requests sent, want exactly 1", n)
	}
}

func TestRejectedAPIKey(t *testing.T) {
	emu := newEmulator(t)
	const wrongKey = "e2b_wrong_key_fedcba9876543210"
	b := newTestBuilder(t, emu, func(c *Config) { c.APIKey = builders.NewSecret(wrongKey) })

	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "py", Image: ciImage}, builders.Observer{})
	want := "E2B rejected the API key (401): check E2B_API_KEY or provider e2b.api_key"
	if got.Status != builders.StatusFailed || got.Stage != builders.StageAPIAuth || !strings.Contains(got.Detail, want) {
		t.Errorf("Ensure = %s/%s %q, want FAILED/API_AUTH with %q", got.Status, got.Stage, got.Detail, want)
	}
	if n := len(emu.Requests()); n != 1 {
		t.Errorf("%d requests sent, want exactly 1 (no retry)", n)
	}
	_, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "py", Image: ciImage}, builders.Observer{})
	if builders.StageOf(err, "") != builders.StageAPIAuth || apihttp.StatusOf(err) != http.StatusUnauthorized {
		t.Errorf("Build error = %v, want API_AUTH wrapping the 401", err)
	}
	assertNoSecrets(t, got.Detail+err.Error(), wrongKey, testAPIKey)
}

// A key revoked while a build runs is refused at the status poll: still API_AUTH, as at the first
// request, because the answer is classified where it is read, not by the stage that asked.
func TestKeyRevokedMidBuildIsAPIAuth(t *testing.T) {
	emu := newEmulator(t)
	emu.HangBuild("revoked")
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if strings.HasSuffix(r.URL.Path, "/status") {
			return &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(`{"code":401,"message":"Invalid API key"}`)), Request: r}, nil
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	b := newTestBuilder(t, emu, func(c *Config) { c.HTTPClient = &http.Client{Transport: transport} })
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "revoked", Image: ciImage}, builders.Observer{})
	if got.Status != builders.StatusFailed || got.Stage != builders.StageAPIAuth || !strings.Contains(got.Detail, "E2B rejected the API key (401)") {
		t.Errorf("Ensure = %s/%s %q, want FAILED/API_AUTH naming the refused key", got.Status, got.Stage, got.Detail)
	}
}

// TestStartRetriedAfterALostAnswer loses the answer of a build start that reached the server:
// the retry is refused as already started, and the build goes on, started once.
func TestStartRetriedAfterALostAnswer(t *testing.T) {
	emu := newEmulator(t)
	lost := false
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil && !lost && r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v2/templates/") {
			lost = true
			_ = resp.Body.Close()
			return &http.Response{StatusCode: http.StatusBadGateway, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
		}
		return resp, err
	})
	b := newTestBuilder(t, emu, func(c *Config) { c.HTTPClient = &http.Client{Transport: transport} })
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "lost", Image: ciImage})
	onlyStart(t, emu)
	if n := emu.CountRequests("POST", "/v2/templates/"); !lost || n != 2 {
		t.Errorf("%d build start requests (answer lost: %v), want the lost one and its refused retry", n, lost)
	}
}

func TestBuildCancelledMidBuild(t *testing.T) {
	emu := newEmulator(t)
	emu.HangBuild("hang")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// Cancel once the build is being polled, i.e. truly mid-build.
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if strings.HasSuffix(r.URL.Path, "/status") {
			cancel()
		}
		return resp, err
	})
	b := newTestBuilder(t, emu, func(c *Config) {
		c.HTTPClient = &http.Client{Transport: transport}
		c.PollInterval, c.MaxPollInterval = time.Hour, time.Hour // only cancellation can end the wait
	})
	got := builders.Ensure(ctx, b, builders.TemplateSpec{TemplateID: "hang", Image: ciImage}, builders.Observer{})
	if got.Status != builders.StatusFailed || got.Stage != builders.StageCancelled {
		t.Errorf("Ensure = %s/%s %q, want FAILED/CANCELLED", got.Status, got.Stage, got.Detail)
	}
	if len(got.Logs) == 0 {
		t.Error("a cancelled build must keep the logs collected so far")
	}
}

func TestBuildDeadline(t *testing.T) {
	emu := newEmulator(t)
	emu.HangBuild("hang")
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := newTestBuilder(t, emu).Build(ctx, builders.TemplateSpec{TemplateID: "hang", Image: ciImage}, builders.Observer{})
	if !errors.Is(err, context.DeadlineExceeded) || builders.StageOf(err, "") != builders.StageTimeout {
		t.Errorf("error = %v, want the deadline (TIMEOUT)", err)
	}
	if info, ok := emu.Template("hang"); !ok || info.BuildStatus != "building" {
		t.Errorf("template = %+v, want it created and still building", info)
	}
}
