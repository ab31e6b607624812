package e2bemu

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess/processconnect"
)

// Sandbox traffic: E2B's client proxy (packages/shared/pkg/proxy/host.go GetTargetFromRequest)
// routes a request to a sandbox's port by the E2b-Sandbox-Id and E2b-Sandbox-Port headers when it
// is addressed to localhost, an IP or sandbox.<domain>, else by its host, <port>-<id>.<domain>.
// The SDKs send the headers with every envd request, so a client given E2B_SANDBOX_URL (E2B's
// local setup: DEV-LOCAL.md) reaches envd through one address: here, the emulator's own.
const (
	headerSandboxID   = "E2b-Sandbox-Id"
	headerSandboxPort = "E2b-Sandbox-Port"
	// EnvdPort is the port envd listens on in every sandbox (the SDKs' envdPort).
	EnvdPort = 49983
)

// isSandboxTraffic tells whether r is for a sandbox (the proxy) rather than the API.
func isSandboxTraffic(r *http.Request) bool {
	return r.Header.Get(headerSandboxID) != "" || r.Header.Get(headerSandboxPort) != ""
}

// sandboxKey carries the sandbox a proxied request is for to envd's handlers.
type sandboxKey struct{}

// sandboxOf is the sandbox serveSandboxTraffic found for the request: always set.
func sandboxOf(ctx context.Context) *sandbox {
	sbx, _ := ctx.Value(sandboxKey{}).(*sandbox)
	return sbx
}

// serveSandboxTraffic is the client proxy in front of a sandbox's envd: 400 for headers that name
// no sandbox and port, 502 "The sandbox was not found" (proxy/template/sandbox_not_found.go) for a
// sandbox that is not running, 502 for a port nothing listens on, then envd itself: its access
// token check (envd/internal/api/auth.go) and the process service.
func (s *Server) serveSandboxTraffic(w http.ResponseWriter, r *http.Request) {
	s.recordSandboxTraffic(r)
	id := r.Header.Get(headerSandboxID)
	port, err := strconv.Atoi(r.Header.Get(headerSandboxPort))
	if id == "" || err != nil {
		http.Error(w, "Missing or invalid header: "+headerSandboxID+", "+headerSandboxPort, http.StatusBadRequest)
		return
	}
	sbx := s.runningSandbox(id)
	if sbx == nil {
		writeJSON(w, http.StatusBadGateway, map[string]any{"sandboxId": id, "message": "The sandbox was not found", "code": http.StatusBadGateway})
		return
	}
	if port != EnvdPort {
		writeJSON(w, http.StatusBadGateway, map[string]any{"sandboxId": id, "message": "The sandbox is running but port is not open", "port": port, "code": http.StatusBadGateway})
		return
	}
	if sbx.accessToken != "" && r.Header.Get("X-Access-Token") != sbx.accessToken {
		envdError(w, http.StatusUnauthorized, "unauthorized access, please provide a valid access token or method signing if supported")
		return
	}
	s.envd.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sandboxKey{}, sbx)))
}

// recordSandboxTraffic records r among the requests (Requests), its access token redacted.
func (s *Server) recordSandboxTraffic(r *http.Request) {
	shown := r.Clone(r.Context())
	if shown.Header.Get("X-Access-Token") != "" {
		shown.Header.Set("X-Access-Token", "[REDACTED]")
	}
	r.Body = readCloser(s.record(shown, true))
}

// newEnvd is the envd a sandbox serves: GET /health (envd/internal/api/health.go answers 204) and
// the process service (envd_process.go), over Connect, gRPC and gRPC-Web as envd serves it.
func newEnvd() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.Handle(processconnect.NewProcessHandler(envdProcess{}))
	return mux
}

// basicAuthUser is the user an envd request names with Basic auth (the SDKs' authenticationHeader:
// "Basic base64(user:)"), "" when it names none.
func basicAuthUser(h http.Header) (string, bool) {
	raw, ok := strings.CutPrefix(h.Get("Authorization"), "Basic ")
	if !ok {
		return "", true
	}
	decoded, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return "", false
	}
	user, _, _ := strings.Cut(string(decoded), ":")
	return user, true
}

// resolveCwd is permissions.ExpandAndResolve: the request's cwd, else the template's workdir,
// else the user's home; "~" is the home, a relative path is under it.
func resolveCwd(cwd, workdir, home string) string {
	if cwd == "" {
		cwd = workdir
	}
	if cwd == "~" || strings.HasPrefix(cwd, "~/") {
		cwd = home + cwd[1:]
	}
	if !path.IsAbs(cwd) {
		cwd = path.Join(home, cwd)
	}
	return path.Clean(cwd)
}

// envdError is envd's JSON error body outside Connect (envd/internal/api/error.go jsonError).
func envdError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": status, "message": message})
}
