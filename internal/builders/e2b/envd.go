package e2b

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"connectrpc.com/connect"
	"github.com/hashicorp/go-version"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess/processconnect"
)

// envdPort is the port envd listens on in every sandbox (the SDKs' envdPort).
const envdPort = 49983

// sharedSandboxDomains are the domains whose sandboxes the SDKs reach at https://sandbox.<domain>,
// routed by header, rather than at https://49983-<id>.<domain> (connectionConfig.ts
// supportedDomains).
var sharedSandboxDomains = []string{"e2b.app", "e2b.dev", "e2b.pro", "e2b-staging.dev"}

// maxEnvdMessageBytes bounds one message envd streams: it sends output in chunks of 32 KiB
// (envd handler.go stdChunkSize), so anything near this is not envd.
const maxEnvdMessageBytes = 1 << 20

// envdConfig is how the Builder reaches the envd of the sandboxes it starts.
type envdConfig struct {
	sandboxURL *url.URL // E2B_SANDBOX_URL: every sandbox's envd, when set
	domain     string   // the domain the SDKs derive a sandbox's address from otherwise
	http       *http.Client
	userAgent  string
}

// baseURL is where the sandbox's envd is reached, as the SDKs' ConnectionConfig.getSandboxUrl
// computes it: the sandbox URL when configured, else by the sandbox's domain (the create answer's
// `domain`, else the configured one).
func (c envdConfig) baseURL(sandboxID, answeredDomain string) string {
	if c.sandboxURL != nil {
		return c.sandboxURL.String()
	}
	domain := answeredDomain
	if domain == "" {
		domain = c.domain
	}
	if slices.Contains(sharedSandboxDomains, domain) {
		return "https://sandbox." + domain
	}
	return fmt.Sprintf("https://%d-%s.%s", envdPort, sandboxID, domain)
}

// envdHTTPClient is the client of envd's streams: base's transport without its overall timeout
// (a command's output streams for as long as it runs; the caller's context bounds it), and no
// redirects followed: envd and E2B's proxy never redirect, and commands, their environment and the
// access token go only where envd was configured.
func envdHTTPClient(base *http.Client) *http.Client {
	hc := &http.Client{}
	if base != nil {
		hc.Transport, hc.Jar = base.Transport, base.Jar
	}
	hc.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		return fmt.Errorf("refused a redirect to %s://%s: commands go only to the sandbox's envd", req.URL.Scheme, req.URL.Host)
	}
	return hc
}

// envd is one sandbox's envd: its process service and what every request to it carries.
type envd struct {
	process processconnect.ProcessClient
	header  http.Header
}

// envdFor is the envd of the sandbox created as created. Every request carries the proxy's routing
// headers and, for a secure sandbox, its access token (the SDK's rpcTransport), and the user
// commands run as (authenticationHeader): user when set, else none, so envd runs them as the
// template's user; an envd older than 0.4.0 has no such default, and the SDKs send "user".
func (c envdConfig) envdFor(created createdSandbox, user string) envd {
	header := http.Header{}
	header.Set("User-Agent", c.userAgent)
	header.Set("E2b-Sandbox-Id", created.SandboxID)
	header.Set("E2b-Sandbox-Port", strconv.Itoa(envdPort))
	if created.EnvdAccessToken != "" {
		header.Set("X-Access-Token", created.EnvdAccessToken)
	}
	if user == "" && olderThan(created.EnvdVersion, "0.4.0") {
		user = "user"
	}
	if user != "" {
		header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":")))
	}
	return envd{
		process: processconnect.NewProcessClient(c.http, c.baseURL(created.SandboxID, created.Domain), connect.WithReadMaxBytes(maxEnvdMessageBytes)),
		header:  header,
	}
}

// olderThan tells whether envd version v is older than want; an unreadable one is not.
func olderThan(v, want string) bool {
	have, err := version.NewVersion(v)
	return err == nil && have.LessThan(version.Must(version.NewVersion(want)))
}
