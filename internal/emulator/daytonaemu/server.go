package daytonaemu

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// APIPath prefixes the API, as Daytona serves it (https://app.daytona.io/api, the SDK's default
// DAYTONA_API_URL): DAYTONA_API_URL is URL+APIPath.
const APIPath = "/api"

// toolboxPath is where the toolbox proxy serves each sandbox's daemon (SandboxDto.toolboxProxyUrl;
// the SDK calls <toolboxProxyUrl>/<sandboxId>/<toolbox route>).
const toolboxPath = "/toolbox"

// proxyPath is the region proxy that streams build logs (snapshot.service.ts getBuildLogsUrl:
// <proxyUrl>/snapshots/<id>/build-logs).
const proxyPath = "/proxy"

// Server is the emulated Daytona API, toolbox proxy and build-log proxy. It is an http.Handler
// and safe for concurrent use.
type Server struct {
	// URL is the server root once served by NewTestServer or Start.
	URL string

	opts   Options
	mux    *http.ServeMux
	server *serve.Server

	mu         sync.Mutex
	offset     time.Duration // the emulator's clock is the real one plus offset (AdvanceClock)
	snapshots  []*Snapshot   // removed ones included, in creation order
	registries []*Registry
	sandboxes  []*Sandbox
	faults     []*Fault
	requests   []Request
	private    map[string]Credential // Options.PrivateImages and those declared since
	objects    map[string][]byte     // object storage, by bucket/key (storage.go)
	catalogue  *sandboxos.Catalogue
}

// New returns a server that is not yet listening; serve it with Start or use it as a handler.
func New(opts Options) *Server {
	s := &Server{opts: opts, mux: http.NewServeMux(), catalogue: new(sandboxos.Catalogue),
		private: map[string]Credential{}, objects: map[string][]byte{}}
	for ref, d := range opts.Images {
		if err := s.catalogue.Declare(ref, d); err != nil {
			panic(fmt.Sprintf("daytonaemu: image %s: %v", ref, err))
		}
	}
	for ref, c := range opts.PrivateImages {
		s.private[ref] = c
	}
	s.routes()
	s.controlRoutes()
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

// APIURL is what DAYTONA_API_URL takes.
func (s *Server) APIURL() string { return s.URL + APIPath }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPath) {
		s.mux.ServeHTTP(w, r) // the emulator's own controls: no key, no faults, not recorded
		return
	}
	s.record(r)
	if s.opts.OnRequest != nil {
		s.opts.OnRequest(r)
	}
	if f := s.takeFault(r); f != nil {
		writeError(w, r, f.Status, "injected fault")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) routes() {
	api := func(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
		method, path, _ := strings.Cut(pattern, " ")
		s.mux.HandleFunc(method+" "+APIPath+path, s.authenticated(h))
	}
	// sandbox/controllers/snapshot.controller.ts
	api("POST /snapshots", s.createSnapshot)
	api("GET /snapshots", s.listSnapshots)
	api("GET /snapshots/{id}", s.getSnapshot)
	api("DELETE /snapshots/{id}", s.removeSnapshot)
	api("GET /snapshots/{id}/build-logs-url", s.buildLogsURL)
	api("GET /snapshots/{id}/build-logs", s.buildLogs)
	api("POST /snapshots/{id}/activate", s.activateSnapshot)
	api("POST /snapshots/{id}/deactivate", s.deactivateSnapshot)
	// docker-registry/controllers/docker-registry.controller.ts
	api("POST /docker-registry", s.createRegistry)
	api("GET /docker-registry", s.listRegistries)
	api("GET /docker-registry/{id}", s.getRegistry)
	api("PATCH /docker-registry/{id}", s.updateRegistry)
	api("DELETE /docker-registry/{id}", s.deleteRegistry)
	// sandbox/controllers/sandbox.controller.ts
	api("POST /sandbox", s.createSandbox)
	api("GET /sandbox", s.listSandboxes)
	api("GET /sandbox/{id}", s.getSandbox)
	api("DELETE /sandbox/{id}", s.deleteSandbox)
	api("GET /sandbox/{id}/toolbox-proxy-url", s.toolboxProxyURL)
	// object-storage/controllers/object-storage.controller.ts, and the S3 it hands out (storage.go)
	api("GET /object-storage/push-access", s.pushAccess)
	s.mux.HandleFunc("GET "+storagePath+"/{bucket}", s.listObjects)
	s.mux.HandleFunc("GET "+storagePath+"/{bucket}/{$}", s.listObjects)
	s.mux.HandleFunc("PUT "+storagePath+"/{bucket}/{key...}", s.putObject)
	// the region proxy: build logs, and the toolbox of each sandbox (daemon pkg/toolbox)
	s.mux.HandleFunc("GET "+proxyPath+"/snapshots/{id}/build-logs", s.authenticated(s.buildLogs))
	s.mux.HandleFunc("POST "+toolboxPath+"/{sandboxId}/process/execute", s.authenticated(s.executeCommand))
	// Nest's answer for a route it does not have (all-exceptions.filter.ts: a NotFoundException
	// under /api/). The SDK's event socket (/api/socket.io/) is not served: the SDK then polls.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, http.StatusNotFound, fmt.Sprintf("Cannot %s %s", r.Method, r.URL.Path))
	})
}

// authenticated checks the Bearer token the way the API's global auth guard does, and turns a
// handler's *httpError into the API's error body.
func (s *Server) authenticated(h func(w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" || (s.opts.APIKey != "" && token != s.opts.APIKey) {
			// auth/global-auth.guard.ts handleRequest: every failed strategy is this one 401
			writeError(w, r, http.StatusUnauthorized, "Invalid credentials")
			return
		}
		if err := h(w, r); err != nil {
			he, isHTTP := err.(*httpError)
			if !isHTTP {
				he = &httpError{http.StatusInternalServerError, "An unexpected error occurred."}
			}
			writeError(w, r, he.status, he.message)
		}
	}
}

// now is the emulator's clock. Callers hold mu.
func (s *Server) now() time.Time { return time.Now().UTC().Add(s.offset) }

// AdvanceClock moves the emulator's clock forward by d: cooldowns and timeouts that depend on
// time pass without waiting.
func (s *Server) AdvanceClock(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offset += d
}

// newUUID is a random version-4 UUID, as the API's ids are (uuid v4): the SDK tells ids from
// names by that shape (Snapshot.ts UUID_REGEX).
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// isUUID is the uuid package's validate, as isUUID in snapshot.service.ts and Nest's
// ParseUUIDPipe use it.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
}

// baseURL is the scheme and host the client reached the emulator at: the URLs the API hands out
// (build logs, the toolbox proxy) point back at it.
func baseURL(r *http.Request) string { return "http://" + r.Host }
