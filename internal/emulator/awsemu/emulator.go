package awsemu

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// DefaultAccountID is the account the emulator pretends to be when Options.AccountID is empty.
const DefaultAccountID = "123456789012"

// Options configure an Emulator.
type Options struct {
	// AccountID appears in ARNs and ECR proxy endpoints. Default DefaultAccountID.
	AccountID string
	// AccessKeyID and SecretAccessKey are the only credentials accepted. With no AccessKeyID any
	// SigV4-signed request is accepted and signatures are not verified.
	AccessKeyID     string
	SecretAccessKey string
	// Now is the emulator's clock, for timestamps it hands out. Default time.Now. Signing times
	// are checked against the real clock, as AWS's own.
	Now func() time.Time
	// Region is the region the endpoint serves: a credential scope for another is refused. Empty
	// accepts any (an in-process test endpoint stands for whichever region its client signs for).
	Region string
}

// Emulator is the fake AWS endpoint. It is safe for concurrent use.
type Emulator struct {
	// URL is the base endpoint once served by NewTestServer or Start: ECR, the AgentCore control
	// plane and the control paths.
	URL string
	// DataPlaneURL is the AgentCore data plane's base endpoint (code interpreter sessions), on a
	// listener of its own as AWS serves it on a host of its own; the control paths answer there too.
	DataPlaneURL string

	accountID string
	region    string
	now       func() time.Time
	server    *serve.Server
	dataPlane *serve.Server

	mu           sync.Mutex
	credentials  *staticCredentials
	ecrToken     ecrToken
	interpreters map[string]codeInterpreter
	sessions     map[string]*codeInterpreterSession
	// commandDuration is how long a command in a session takes (SetCommandDuration).
	commandDuration time.Duration
	denied          map[string]bool // operation name -> AccessDeniedException
	faults          []*Fault
	requests        []Request
	control         http.Handler
}

type staticCredentials struct{ accessKeyID, secret string }

// New returns an emulator that is not yet listening; serve it with Start or use it as an http.Handler.
func New(opts Options) *Emulator {
	e := &Emulator{
		accountID:    opts.AccountID,
		region:       opts.Region,
		now:          opts.Now,
		ecrToken:     ecrToken{user: "AWS", password: "awsemu-ecr-password"},
		interpreters: map[string]codeInterpreter{},
		sessions:     map[string]*codeInterpreterSession{},
		denied:       map[string]bool{},
	}
	if e.accountID == "" {
		e.accountID = DefaultAccountID
	}
	if e.now == nil {
		e.now = time.Now
	}
	e.control = e.controlHandler()
	if opts.AccessKeyID != "" {
		e.SetCredentials(opts.AccessKeyID, opts.SecretAccessKey)
	}
	return e
}

// NewTestServer serves a new emulator on 127.0.0.1 for the duration of the test.
func NewTestServer(t testing.TB, opts Options) *Emulator {
	t.Helper()
	e := New(opts)
	e.URL = serve.ForTest(t, e)
	e.DataPlaneURL = serve.ForTest(t, e.DataPlane())
	return e
}

// Start serves the emulator on addr (for example "127.0.0.1:0"), and its data plane on a free
// port of the same host, until Close.
func (e *Emulator) Start(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	srv, err := serve.Start(addr, e)
	if err != nil {
		return err
	}
	data, err := serve.Start(net.JoinHostPort(host, "0"), e.DataPlane())
	if err != nil {
		return errors.Join(err, srv.Close())
	}
	e.server, e.URL = srv, srv.URL
	e.dataPlane, e.DataPlaneURL = data, data.URL
	return nil
}

// Close stops the servers started with Start.
func (e *Emulator) Close() error { return errors.Join(e.dataPlane.Close(), e.server.Close()) }

// DataPlane is the handler of the AgentCore data plane's endpoint (Emulator itself is ECR's and
// the control plane's).
func (e *Emulator) DataPlane() http.Handler { return http.HandlerFunc(e.serveDataPlane) }

// SetCredentials makes the key pair the only one accepted, from now on.
func (e *Emulator) SetCredentials(accessKeyID, secretAccessKey string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.credentials = &staticCredentials{accessKeyID: accessKeyID, secret: secretAccessKey}
}

// DenyAccess makes an operation ("GetAuthorizationToken", "GetCodeInterpreter") answer
// AccessDeniedException, as for a principal without the IAM permission.
func (e *Emulator) DenyAccess(operation string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.denied[operation] = true
}

// ServeHTTP routes a request to the API it belongs to, or to the control paths (ControlPrefix).
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case isControl(r):
		e.control.ServeHTTP(w, r)
	case r.Method == http.MethodPost && r.URL.Path == "/" && r.Header.Get("X-Amz-Target") != "":
		e.serveECR(w, r)
	case strings.HasPrefix(r.URL.Path, codeInterpretersPath):
		e.serveAgentCore(w, r)
	default:
		http.Error(w, "awsemu: no emulated operation at "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	}
}
