package e2bemu

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// Options configure a Server.
type Options struct {
	// APIKey is the only X-API-Key accepted; empty accepts any non-empty key.
	APIKey string
	// BuildDuration is how long a started build stays "building"; 0 means ready at the first poll.
	BuildDuration time.Duration
	// Clock replaces time.Now, so tests can move builds on without waiting; nil is time.Now.
	Clock func() time.Time
	// BuildConcurrency is the team's limit of concurrent template builds (a build counts from its
	// registration until it ends); 0 means no limit.
	BuildConcurrency int
	// TeamSlug is the team's namespace, as in the names E2B returns ("<slug>/<alias>"); empty is "emulator".
	TeamSlug string
	// TeamLimits are the team's sizing maxima; zero fields are those of E2B's default tier.
	TeamLimits TeamLimits
	// RefuseSteps makes the server one of the E2B-compatible servers that build from an image or
	// template only: a build start with steps answers 400 "steps are not supported".
	RefuseSteps bool
	// Images declares what images hold (sandboxos.Declaration), by reference (a reference without
	// a tag declares every tag): what the emulator cannot know, such as a private registry's image,
	// which it otherwise assumes to be Debian with Python (sandboxos.Catalogue).
	Images map[string]sandboxos.Declaration
}

// Server is an in-memory E2B API. It is safe for concurrent use.
type Server struct {
	URL string

	opts Options
	mux  *http.ServeMux
	now  func() time.Time

	mu            sync.Mutex
	templates     []*tmpl
	sandboxes     map[string]*sandbox
	requests      []Request
	starts        []BuildStart
	faults        faultState
	buildDuration time.Duration
	concurrency   int
	limits        TeamLimits
	echoBodies    bool
	server        *serve.Server
	// layers and files are the team's build cache (its cache scope): layer keys built (layers.go)
	// and the hashes of the layer files uploaded for COPY steps (files.go).
	layers map[string]bool
	files  map[string]bool
	// layerStates are what cached layers left (build_machine.go); fileData the uploaded tars.
	layerStates map[string]layerState
	fileData    map[string][]byte
	catalogue   *sandboxos.Catalogue // what images hold
	// refuseSteps answers a build start with steps 400, as E2B-compatible servers without step
	// builds do (Options.RefuseSteps).
	refuseSteps bool
	// envd serves the sandboxes' envd behind the client proxy (envd.go).
	envd http.Handler
}

// New returns a server that is not listening yet: use it as an http.Handler, or call Start.
func New(opts Options) *Server {
	if opts.TeamSlug == "" {
		opts.TeamSlug = "emulator"
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), now: time.Now, faults: newFaultState(),
		buildDuration: opts.BuildDuration, concurrency: opts.BuildConcurrency, limits: opts.TeamLimits.orDefault(),
		layers: map[string]bool{}, files: map[string]bool{}, refuseSteps: opts.RefuseSteps,
		layerStates: map[string]layerState{}, fileData: map[string][]byte{}, catalogue: new(sandboxos.Catalogue), envd: newEnvd()}
	for ref, d := range opts.Images {
		if err := s.catalogue.Declare(ref, d); err != nil {
			panic(fmt.Sprintf("e2bemu: image %s: %v", ref, err))
		}
	}
	if opts.Clock != nil {
		s.now = opts.Clock
	}
	s.routes()
	return s
}

// NewTestServer starts a server on 127.0.0.1 that t.Cleanup closes.
func NewTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	s := New(opts)
	s.URL = serve.ForTest(t, s)
	return s
}

// Start serves on addr (e.g. "127.0.0.1:0") and returns the server's URL.
func (s *Server) Start(addr string) (string, error) {
	srv, err := serve.Start(addr, s)
	if err != nil {
		return "", err
	}
	s.server, s.URL = srv, srv.URL
	return s.URL, nil
}

// Close stops a server started with Start.
func (s *Server) Close() error { return s.server.Close() }

func (s *Server) routes() {
	s.mux.HandleFunc("POST /v3/templates", s.createTemplate)
	s.mux.HandleFunc("POST /v2/templates/{templateID}/builds/{buildID}", s.startBuild)
	s.mux.HandleFunc("GET /templates/{templateID}/builds/{buildID}/status", s.buildStatus)
	s.mux.HandleFunc("GET /templates/{templateID}/files/{hash}", s.fileUploadLink)
	s.mux.HandleFunc("GET /templates", s.listTemplates)
	s.mux.HandleFunc("GET /templates/{templateID}", s.getTemplate)
	s.mux.HandleFunc("PATCH /templates/{templateID}", s.updateTemplate)
	s.mux.HandleFunc("PATCH /v2/templates/{templateID}", s.updateTemplate)
	s.mux.HandleFunc("DELETE /templates/{templateID}", s.deleteTemplate)
	// /templates/aliases/{alias} and /templates/{templateID}/tags overlap for Go's mux: dispatch by hand.
	s.mux.HandleFunc(aliasOrTagsPattern, s.aliasOrTags)
	s.mux.HandleFunc("POST /templates/tags", s.assignTags)
	s.mux.HandleFunc("DELETE /templates/tags", s.deleteTags)
	s.mux.HandleFunc("POST /sandboxes", s.createSandbox)
	s.mux.HandleFunc("POST /v2/sandboxes", s.createSandbox)
	s.mux.HandleFunc("DELETE /sandboxes/{sandboxID}", s.killSandbox)
	// Unknown paths get the spec's Error JSON rather than Go's plain-text 404.
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no route for "+r.Method+" "+r.URL.Path)
	})
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, ControlPrefix) { // the emulator's own endpoints: no auth, no faults, not recorded
		s.serveControl(w, r)
		return
	}
	if isSandboxTraffic(r) { // for a sandbox's port (envd), through E2B's client proxy: no API key
		s.serveSandboxTraffic(w, r)
		return
	}
	key := r.Header.Get("X-API-Key")
	authorized := key != "" && (s.opts.APIKey == "" || key == s.opts.APIKey)
	body := s.record(r, authorized) // the body of a request anyone could send is not kept
	r.Body = readCloser(body)
	s.mu.Lock()
	echo := s.echoBodies
	s.mu.Unlock()
	if echo {
		w = &echoWriter{ResponseWriter: w, body: body}
	}
	if s.injectFault(w, r) {
		return
	}
	if !authorized {
		writeError(w, http.StatusUnauthorized, "Invalid API key, please visit https://e2b.dev/docs to get your API key")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) aliasOrTags(w http.ResponseWriter, r *http.Request) {
	switch first, second := r.PathValue("first"), r.PathValue("second"); {
	case first == "aliases":
		s.getAlias(w, second)
	case second == "tags":
		s.listTags(w, first)
	default:
		writeError(w, http.StatusNotFound, "not found")
	}
}

// lock takes s.mu and moves every build and sandbox on by the clock, so a build that ended frees its
// team's concurrency slot and tags a ready build, and a sandbox past its timeout is gone, before
// anything reads them. Callers unlock s.mu.
func (s *Server) lock() {
	s.mu.Lock()
	for _, t := range s.templates {
		for _, b := range t.builds {
			s.advance(t, b)
		}
	}
	s.expireSandboxes() // and ends the sandboxes whose timeout has passed
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, apiError{Code: status, Message: message})
}

// validated is a request body with rules beyond its JSON shape.
type validated interface{ problem() string }

// decode reads the JSON body into v and checks v's own rules when it has them (validated); when
// either fails it answers 400 ("Invalid request body: ..." as ginutils.ParseBody does) and returns false.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request body: "+strings.TrimPrefix(err.Error(), "json: "))
		return false
	}
	if req, ok := v.(validated); ok {
		if msg := req.problem(); msg != "" {
			writeError(w, http.StatusBadRequest, msg)
			return false
		}
	}
	return true
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newUUID formats 16 random bytes as a UUID (build ids are format: uuid in the spec).
func newUUID() string {
	h := newID()
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}
