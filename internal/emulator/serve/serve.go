// Package serve runs an emulator's handler on a loopback address: until Close (the demo and the
// benchmark, through cmd/sandbox-emulator) or until the test ends.
package serve

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Server is a handler served on a listening address.
type Server struct {
	URL  string // "http://" + the address it listens on
	http *http.Server
}

// Start serves h on addr (for example "127.0.0.1:0") until Close, through guard.
func Start(addr string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), http: &http.Server{Handler: guard(hostname(ln.Addr().String()), h), ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.http.Serve(ln) }() // ends with http.ErrServerClosed on Close
	return s, nil
}

// Close stops serving and lets requests in flight finish, for up to 5 s. A nil Server, one never
// started, is already stopped.
func (s *Server) Close() error {
	if s == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.http.Shutdown(ctx)
}

// ForTest serves h on 127.0.0.1 until the test ends, through guard, and returns its URL.
func ForTest(t testing.TB, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(guard("127.0.0.1", h))
	t.Cleanup(srv.Close)
	return srv.URL
}
