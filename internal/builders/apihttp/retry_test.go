package apihttp

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// Each retry class against each kind of failure: how many tries the client makes before it
// returns, with 3 allowed.
func TestRetryClasses(t *testing.T) {
	const allowed = 3
	refused := answer{status: http.StatusTooManyRequests}
	down := answer{status: http.StatusServiceUnavailable}
	dropped := answer{transport: true}
	for _, tt := range []struct {
		name   string
		method string
		class  RetryClass
		fail   answer
		tries  int
	}{
		{"all: 429", http.MethodPost, RetryAll, refused, allowed},
		{"all: 503", http.MethodPost, RetryAll, down, allowed},
		{"all: transport", http.MethodPost, RetryAll, dropped, allowed},
		{"all: 501 never heals", http.MethodGet, RetryAll, answer{status: http.StatusNotImplemented}, 1},
		{"all: 4xx is final", http.MethodGet, RetryAll, answer{status: http.StatusConflict}, 1},
		{"only 429: 429", http.MethodGet, RetryOnly429, refused, allowed},
		{"only 429: 503", http.MethodGet, RetryOnly429, down, 1},
		{"only 429: transport", http.MethodGet, RetryOnly429, dropped, 1},
		{"except 429: 429 goes to the caller", http.MethodPost, RetryExcept429, refused, 1},
		{"except 429: 503", http.MethodPost, RetryExcept429, down, allowed},
		{"except 429: transport", http.MethodPost, RetryExcept429, dropped, allowed},
		{"by method: GET is idempotent", http.MethodGet, RetryByMethod, down, allowed},
		{"by method: DELETE is idempotent", http.MethodDelete, RetryByMethod, dropped, allowed},
		{"by method: POST 5xx is not repeated", http.MethodPost, RetryByMethod, down, 1},
		{"by method: POST transport is not repeated", http.MethodPost, RetryByMethod, dropped, 1},
		{"by method: POST 429 is", http.MethodPost, RetryByMethod, refused, allowed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv, base := newScripted(t, tt.fail)
			c, waits := testClient(base, allowed)
			err := c.Do(t.Context(), Request{Method: tt.method, Path: "/x", Retry: tt.class})
			if err == nil {
				t.Fatal("a failing server gave no error")
			}
			if n := srv.count(); n != tt.tries || len(waits()) != tt.tries-1 {
				t.Errorf("%d tries with %d waits, want %d tries", n, len(waits()), tt.tries)
			}
			if !tt.fail.transport && StatusOf(err) != tt.fail.status {
				t.Errorf("err = %v, want the last answer's status %d", err, tt.fail.status)
			}
		})
	}
}

func TestRetryEndsWithSuccess(t *testing.T) {
	srv, base := newScripted(t, answer{status: 502}, answer{transport: true}, answer{body: `{"ok":true}`})
	c, _ := testClient(base, 3)
	var out struct{ OK bool }
	if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x", Out: &out}); err != nil || !out.OK {
		t.Fatalf("Do = %v, %+v", err, out)
	}
	if srv.count() != 3 {
		t.Errorf("%d tries, want 3", srv.count())
	}
}

// Backoff doubles from BaseDelay up to MaxDelay with equal jitter: each wait lies in [exp/2, exp].
func TestBackoffJitterBounds(t *testing.T) {
	const attempts = 8
	_, base := newScripted(t, answer{status: http.StatusServiceUnavailable})
	for range 20 { // jitter is random: its bounds must hold every time
		c, waits := testClient(base, attempts)
		c.Retry.BaseDelay, c.Retry.MaxDelay = 100*time.Millisecond, time.Second
		_ = c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"})
		got := waits()
		if len(got) != attempts-1 {
			t.Fatalf("%d waits, want %d", len(got), attempts-1)
		}
		for i, w := range got {
			exp := min(100*time.Millisecond<<i, time.Second)
			if w < exp/2 || w > exp {
				t.Errorf("wait %d = %v, want within [%v, %v]", i, w, exp/2, exp)
			}
		}
	}
	c, waits := testClient(base, 2)
	_ = c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"})
	if w := waits()[0]; w < DefaultBaseDelay/2 || w > DefaultBaseDelay {
		t.Errorf("default first wait = %v, want within [%v, %v]", w, DefaultBaseDelay/2, DefaultBaseDelay)
	}
}

// Retry-After wins over the backoff, exactly, up to the one cap of MaxRetryAfter.
func TestRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   time.Duration
	}{
		{"0", 0},
		{"7", 7 * time.Second},
		{"60", time.Minute},
		{"3600", MaxRetryAfter},
		{time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), MaxRetryAfter},
	} {
		_, base := newScripted(t, answer{status: http.StatusTooManyRequests, retryAfter: tt.header}, answer{})
		c, waits := testClient(base, 2)
		if err := c.Do(t.Context(), Request{Method: http.MethodGet, Path: "/x"}); err != nil {
			t.Fatal(err)
		}
		if got := waits(); len(got) != 1 || got[0] != tt.want {
			t.Errorf("Retry-After %q: waits %v, want [%v]", tt.header, got, tt.want)
		}
	}
}

// A 429 the caller owns keeps its Retry-After, and WaitRetryAfter waits it out within the cap.
func TestWaitRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   time.Duration
	}{{"2", 2 * time.Second}, {"86400", MaxRetryAfter}, {"", 5 * time.Second}} {
		_, base := newScripted(t, answer{status: http.StatusTooManyRequests, retryAfter: tt.header})
		c, waits := testClient(base, 5)
		err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/x", Retry: RetryExcept429})
		if StatusOf(err) != http.StatusTooManyRequests {
			t.Fatalf("err = %v, want the 429", err)
		}
		if err := c.WaitRetryAfter(t.Context(), err, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		if got := waits(); len(got) != 1 || got[0] != tt.want {
			t.Errorf("Retry-After %q: waits %v, want [%v]", tt.header, got, tt.want)
		}
	}
}

// A cancelled context ends the tries and says so, for errors.Is and builders.StageOf.
func TestCancelledContextEndsTheTries(t *testing.T) {
	srv, base := newScripted(t, answer{status: http.StatusServiceUnavailable})
	c, _ := testClient(base, 5)
	ctx, cancel := context.WithCancel(t.Context())
	c.Wait = func(context.Context, time.Duration) error { cancel(); return Sleep(ctx, time.Hour) }
	err := c.Do(ctx, Request{Method: http.MethodGet, Path: "/x"})
	if !errors.Is(err, context.Canceled) || srv.count() != 1 {
		t.Errorf("err = %v after %d tries, want context.Canceled after 1", err, srv.count())
	}

	// Cancelled before the answer: the error names the request and wraps ctx's error.
	c2 := &Client{Name: "Test", BaseURL: &url.URL{Scheme: "http", Host: "127.0.0.1:1"}, HTTP: &http.Client{}}
	done, stop := context.WithCancel(t.Context())
	stop()
	if err := c2.Do(done, Request{Method: http.MethodGet, Path: "/y"}); !errors.Is(err, context.Canceled) ||
		err.Error() != "test: GET /y: context canceled" {
		t.Errorf("err = %v, want %q", err, "test: GET /y: context canceled")
	}
}
