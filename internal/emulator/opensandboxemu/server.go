package opensandboxemu

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// Server is the emulated OpenSandbox server. It is an http.Handler and safe for concurrent use.
type Server struct {
	// URL is the server root (lifecycle API at URL+"/v1") once served by NewTestServer or Start.
	URL string

	opts   Options
	mux    *http.ServeMux
	server *serve.Server

	mu        sync.Mutex
	clock     time.Time
	seq       int
	sandboxes []*Sandbox
	snapshots []*Snapshot
	faults    []*Fault
	requests  []Request
	catalogue *sandboxos.Catalogue // what images hold (Options.Images declares more)
}

// New returns a server that is not yet listening; serve it with Start or use it as a handler.
func New(opts Options) *Server {
	s := &Server{opts: opts, mux: http.NewServeMux(), clock: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), catalogue: new(sandboxos.Catalogue)}
	for ref, d := range opts.Images {
		if err := s.catalogue.Declare(ref, d); err != nil {
			panic(fmt.Sprintf("opensandboxemu: image %s: %v", ref, err))
		}
	}
	s.routes()
	s.imageControlRoutes()
	return s
}

// NewTestServer serves a new emulator on 127.0.0.1 for the duration of the test.
func NewTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	s.URL = serve.ForTest(t, s)
	return s
}

// Start serves the emulator on addr (for example "127.0.0.1:0") until Close.
func (s *Server) Start(addr string) error {
	srv, err := serve.Start(addr, s)
	if err != nil {
		return err
	}
	s.server, s.URL = srv, srv.URL
	return nil
}

// Close stops a server started with Start.
func (s *Server) Close() error { return s.server.Close() }

// LifecycleURL is the base URL the builder's Config.BaseURL takes.
func (s *Server) LifecycleURL() string { return s.URL + "/v1" }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPath) {
		s.mux.ServeHTTP(w, r) // the emulator's own controls: no key, no faults, not recorded
		return
	}
	body := s.record(r)
	if s.opts.OnRequest != nil {
		s.opts.OnRequest(r)
	}
	if f := s.takeFault(r); f != nil {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		writeError(w, f.Status, f.code(), f.message(body))
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	for _, prefix := range []string{"", "/v1"} {
		s.lifecycle(prefix, "GET /sandboxes", s.listSandboxes)
		s.lifecycle(prefix, "POST /sandboxes", s.createSandbox)
		s.lifecycle(prefix, "GET /sandboxes/{sandboxId}", s.getSandbox)
		s.lifecycle(prefix, "DELETE /sandboxes/{sandboxId}", s.deleteSandbox)
		s.lifecycle(prefix, "GET /sandboxes/{sandboxId}/endpoints/{port}", s.getEndpoint)
		s.lifecycle(prefix, "POST /sandboxes/{sandboxId}/pause", s.pauseSandbox)
		s.lifecycle(prefix, "POST /sandboxes/{sandboxId}/resume", s.resumeSandbox)
		s.lifecycle(prefix, "POST /sandboxes/{sandboxId}/renew-expiration", s.renewExpiration)
		s.lifecycle(prefix, "PATCH /sandboxes/{sandboxId}/metadata", s.patchMetadata)
		s.lifecycle(prefix, "POST /sandboxes/{sandboxId}/snapshots", s.createSnapshot)
		s.lifecycle(prefix, "GET /snapshots", s.listSnapshots)
		s.lifecycle(prefix, "GET /snapshots/{snapshotId}", s.getSnapshot)
		s.lifecycle(prefix, "DELETE /snapshots/{snapshotId}", s.deleteSnapshot)
	}
	s.mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { // FastAPI's answer for a path it has no route for
		writeJSON(w, http.StatusNotFound, map[string]string{"detail": "Not Found"})
	})
	s.mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "healthy"})
	})
	s.mux.HandleFunc("GET /execd/{sandboxId}/ping", s.execd(s.ping))
	s.mux.HandleFunc("POST /execd/{sandboxId}/command", s.execd(s.runCommand))
	s.mux.HandleFunc("GET /execd/{sandboxId}/command/{first}/{second}", s.execd(s.commandRecord))
	s.mux.HandleFunc("POST /execd/{sandboxId}/directories", s.execd(s.makeDirs))
	s.mux.HandleFunc("POST /execd/{sandboxId}/files/upload", s.execd(s.uploadFiles))
	s.controlRoutes()
}

func (s *Server) lifecycle(prefix, pattern string, h http.HandlerFunc) {
	method, path, _ := strings.Cut(pattern, " ")
	s.mux.HandleFunc(method+" "+prefix+path, s.authenticated(h))
}

// authenticated checks OPEN-SANDBOX-API-KEY the way the server's auth middleware does.
func (s *Server) authenticated(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-ID", requestID(r))
		if s.opts.APIKey != "" {
			switch key := r.Header.Get("OPEN-SANDBOX-API-KEY"); {
			case key == "":
				writeError(w, http.StatusUnauthorized, "MISSING_API_KEY", "Authentication credentials are missing")
				return
			case key != s.opts.APIKey:
				writeError(w, http.StatusUnauthorized, "INVALID_API_KEY", "Authentication credentials are invalid")
				return
			}
		}
		h(w, r)
	}
}

// nextID hands out ids and advances the clock, so creation times strictly increase. Callers hold mu.
func (s *Server) nextID(prefix string) (string, time.Time) {
	s.seq++
	s.clock = s.clock.Add(time.Second)
	return fmt.Sprintf("%s-%04d", prefix, s.seq), s.clock
}

func requestID(r *http.Request) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012x", len(r.URL.Path)+int(r.ContentLength))
}
