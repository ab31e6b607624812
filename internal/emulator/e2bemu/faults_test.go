package e2bemu_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

func TestFailNextAnswersTheStatusThenRecovers(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	emu.FailNext(3, http.StatusInternalServerError)
	for i := range 3 {
		status, _, body, _ := c.call("POST", "/v3/templates", map[string]any{"name": "py"})
		if status != 500 || body["code"] != float64(500) {
			t.Errorf("request %d = %d %v, want the injected 500 with the Error JSON", i, status, body)
		}
	}
	if _, ok := emu.Template("py"); ok {
		t.Error("nothing behind a faulted request may happen, yet the template exists")
	}
	c.create(map[string]any{"name": "py"})
	if n := emu.InjectedFaults(); n != 3 {
		t.Errorf("InjectedFaults = %d, want 3", n)
	}
}

func TestTooManyRequestsCarriesRetryAfter(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	emu.FailNext(1, http.StatusTooManyRequests)
	if status, header, _, _ := c.call("GET", "/templates", nil); status != 429 || header.Get("Retry-After") != "1" {
		t.Errorf("FailNext(429) = %d with Retry-After %q, want 429 with the default 1", status, header.Get("Retry-After"))
	}
	emu.SetFaults(e2bemu.Faults{RetryAfter: 3 * time.Second})
	emu.FailNext(1, http.StatusTooManyRequests)
	if _, header, _, _ := c.call("GET", "/templates", nil); header.Get("Retry-After") != "3" {
		t.Errorf("Retry-After = %q, want the configured 3 seconds", header.Get("Retry-After"))
	}
	emu.SetFaults(e2bemu.Faults{Rate: 1, Status: []int{429}, RetryAfter: 1500 * time.Millisecond})
	if _, header, _, _ := c.call("GET", "/templates", nil); header.Get("Retry-After") != "2" {
		t.Errorf("Retry-After = %q, want 1.5s rounded up to 2", header.Get("Retry-After"))
	}
}

func TestFaultRateIsSeededAndCyclesStatuses(t *testing.T) {
	sequence := func(seed int64) []int {
		emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
		emu.SetFaults(e2bemu.Faults{Rate: 0.5, Seed: seed})
		c := newCaller(t, emu)
		var out []int
		for range 60 {
			status, _, _, _ := c.call("GET", "/templates", nil)
			out = append(out, status)
		}
		return out
	}
	a, b := sequence(7), sequence(7)
	failures, kinds := 0, map[int]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("the same seed gave different sequences at %d: %v vs %v", i, a, b)
		}
		if a[i] != 200 {
			failures++
			kinds[a[i]] = true
		}
	}
	if failures == 0 || failures == len(a) {
		t.Errorf("rate 0.5 failed %d of %d requests", failures, len(a))
	}
	for _, want := range []int{500, 502, 503, 429} {
		if failures >= 4 && !kinds[want] {
			t.Errorf("default statuses cycle 500, 502, 503, 429; %d never came: %v", want, kinds)
		}
	}

	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SetFaults(e2bemu.Faults{Rate: 1, Status: []int{502, 503}})
	c := newCaller(t, emu)
	for i, want := range []int{502, 503, 502} {
		if status, _, _, _ := c.call("GET", "/templates", nil); status != want {
			t.Errorf("rate 1, request %d = %d, want %d", i, status, want)
		}
	}
	emu.SetFaults(e2bemu.Faults{})
	if status, _, _, _ := c.call("GET", "/templates", nil); status != 200 {
		t.Errorf("after clearing faults = %d, want 200", status)
	}
}

// TestLatencySlowsResponses: a client whose deadline is shorter than the latency times out; the
// emulator does not hold the request once the client gave up.
func TestLatencySlowsResponses(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SetFaults(e2bemu.Faults{Latency: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", emu.URL+"/templates", nil)
	req.Header.Set("X-API-Key", apiKey)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		_ = resp.Body.Close()
		t.Fatal("a request slower than its deadline must fail")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the client's deadline", err)
	}
	if n := emu.CountRequests("GET", "/templates"); n != 1 {
		t.Errorf("the slow request was recorded %d times, want 1", n)
	}
}

// TestDropConnectionsDuringBuild: the next n polls of the template lose their connection; the
// build itself goes on, and the poll after them answers.
func TestDropConnectionsDuringBuild(t *testing.T) {
	for _, validated := range []bool{false, true} {
		var emu *e2bemu.Server
		if validated {
			emu, _ = e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
		} else {
			emu = e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
		}
		c := newCaller(t, emu)
		b := c.create(map[string]any{"name": "py"})
		c.start(b, fromPython)
		emu.DropConnectionsDuringBuild("py", 2)
		// Fresh connections: Go's transport silently retries an idempotent request once when a
		// reused connection closes, which would hide the drop.
		fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		for i := range 2 {
			req, _ := http.NewRequest("GET", emu.URL+b.statusPath(), nil)
			req.Header.Set("X-API-Key", apiKey)
			if resp, err := fresh.Do(req); err == nil {
				_ = resp.Body.Close()
				t.Errorf("validated=%v: dropped poll %d answered %d, want a transport error", validated, i, resp.StatusCode)
			}
		}
		if got := c.status(b)["status"]; got != "ready" {
			t.Errorf("validated=%v: the poll after the drops = %v, want ready", validated, got)
		}
	}
}
