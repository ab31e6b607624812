package apihttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// TestFinishOutlivesAnInterrupt: a create interrupted while the server creates (Ctrl-C during the
// POST) still reads the answer, so the caller learns what exists and records it; one interrupted
// before it was sent is not sent at all, and a request without Finish stops at once.
func TestFinishOutlivesAnInterrupt(t *testing.T) {
	received := make(chan struct{}, 3)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		received <- struct{}{}
		time.Sleep(200 * time.Millisecond) // the server is creating it when the interrupt comes
		_, _ = w.Write([]byte(`{"id":"created"}`))
	}))
	t.Cleanup(srv.Close)
	base, _ := url.Parse(srv.URL)
	c, _ := testClient(base, 1)
	send := func(ctx context.Context, finish time.Duration) (string, error) {
		var out struct{ ID string }
		err := c.Do(ctx, Request{Method: http.MethodPost, Path: "/things", In: map[string]string{}, Out: &out, Finish: finish})
		return out.ID, err
	}
	interruptOnArrival := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-received; cancel() }()
		return ctx
	}

	if id, err := send(interruptOnArrival(), time.Second); err != nil || id != "created" {
		t.Errorf("with Finish: %q, %v; want the answer read after the interrupt", id, err)
	}
	if _, err := send(interruptOnArrival(), 0); !errors.Is(err, context.Canceled) {
		t.Errorf("without Finish: %v, want cancelled at once", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := send(cancelled, time.Second); !errors.Is(err, context.Canceled) || len(received) != 0 {
		t.Errorf("interrupted before sending: %v with %d requests received, want cancelled and none sent", err, len(received))
	}
}
