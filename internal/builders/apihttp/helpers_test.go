package apihttp

import (
	"cmp"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// answer is one scripted reply; transport set means the connection is dropped instead.
type answer struct {
	status     int
	body       string
	retryAfter string
	header     http.Header
	transport  bool
}

// scripted is a server that plays answers in order (the last one again when they run out) and
// keeps the requests it got.
type scripted struct {
	mu       sync.Mutex
	answers  []answer
	requests []*http.Request
}

func newScripted(t *testing.T, answers ...answer) (*scripted, *url.URL) {
	t.Helper()
	s := &scripted{answers: answers}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL + "/v1")
	if err != nil {
		t.Fatal(err)
	}
	return s, u
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r)
	a := s.answers[min(len(s.requests), len(s.answers))-1]
	s.mu.Unlock()
	if a.transport {
		panic(http.ErrAbortHandler) // the client sees the connection drop
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	if a.retryAfter != "" {
		w.Header().Set("Retry-After", a.retryAfter)
	}
	w.WriteHeader(cmp.Or(a.status, http.StatusOK))
	_, _ = w.Write([]byte(a.body))
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *scripted) first() *http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[0]
}

// testClient is a Client on base whose waits are recorded, never slept.
func testClient(base *url.URL, attempts int) (*Client, func() []time.Duration) {
	var mu sync.Mutex
	var waits []time.Duration
	c := &Client{Name: "Test", BaseURL: base, HTTP: &http.Client{}, Retry: RetryPolicy{MaxAttempts: attempts},
		Wait: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, d)
			return ctx.Err()
		}}
	return c, func() []time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Duration(nil), waits...)
	}
}
