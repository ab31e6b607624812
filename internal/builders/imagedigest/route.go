package imagedigest

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sync"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// route sits under go-containerregistry's transport and decides, for every request, whether it
// may be sent, so that a credential goes only where it is for, as Docker sends it:
//   - to the image's registry, and only once that registry has asked for one (its /v2/ answer
//     challenged the client); nothing is minted for a registry that asks for nothing;
//   - to a token service the registry's own challenge names (realm), when the credential is a
//     basic login, or a Google one and the token service is Google's; an ECR token goes to its
//     ECR registry only;
//   - never in clear text: plain HTTP only to a registry on this machine (a loopback address, as
//     Docker treats 127.0.0.0/8 as an insecure registry).
type route struct {
	next     http.RoundTripper
	registry string                    // host[:port] of the image's registry
	kind     builders.RegistryAuthKind // "" for an anonymous pull

	mu         sync.Mutex
	challenged bool
	realms     map[string]bool // hosts of the token services the registry named
}

// refusedError is a request route would not send; it names the host.
type refusedError struct{ msg string }

func (e *refusedError) Error() string { return e.msg }

func (r *route) RoundTrip(req *http.Request) (*http.Response, error) {
	host := req.URL.Host
	if req.URL.Scheme != "https" && !isLoopback(req.URL.Hostname()) {
		return nil, &refusedError{fmt.Sprintf("not contacting %s over plain HTTP: only a registry on this machine (a loopback address) is asked without TLS", host)}
	}
	if req.Header.Get("Authorization") != "" && !r.mayReceive(host) {
		return nil, r.refusal(host)
	}
	resp, err := r.next.RoundTrip(req)
	if err == nil && host == r.registry && resp.StatusCode == http.StatusUnauthorized {
		r.learn(resp.Header.Values("WWW-Authenticate"))
	}
	return resp, err
}

// mayReceive tells whether a credential may be sent to host.
func (r *route) mayReceive(host string) bool {
	if host == r.registry {
		return true
	}
	r.mu.Lock()
	named := r.realms[host]
	r.mu.Unlock()
	switch r.kind {
	case builders.RegistryAuthBasic:
		return named
	case builders.RegistryAuthGCP:
		return named && builders.IsGoogleRegistryHost(host)
	}
	return false // an ECR token, or an anonymous pull's token, is for the registry alone
}

// refusal says why a credential is not sent to host, and where it does go.
func (r *route) refusal(host string) error {
	var what, goes string
	switch r.kind {
	case builders.RegistryAuthBasic:
		what, goes = "the registry_auth.basic login", "only to "+r.registry+" and the token service it names"
	case builders.RegistryAuthGCP:
		what, goes = "the registry_auth.gcp token", "only to Google's registries and token services"
	case builders.RegistryAuthAWS:
		what, goes = "the registry_auth.aws ECR token", "only to its ECR registry, "+r.registry
	default:
		what, goes = "a registry token", "only to "+r.registry
	}
	r.mu.Lock()
	named := r.realms[host]
	r.mu.Unlock()
	if named {
		host += ", which " + r.registry + " named as its token service"
	}
	return &refusedError{fmt.Sprintf("not sending %s to %s: it goes %s", what, host, goes)}
}

// realmParameter is the realm of a challenge (RFC 7235: quoted or a token).
var realmParameter = regexp.MustCompile(`(?i)\brealm\s*=\s*(?:"([^"]*)"|([^\s,]+))`)

// learn records a challenge of the registry and the token services it names.
func (r *route) learn(challenges []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range challenges {
		r.challenged = true
		m := realmParameter.FindStringSubmatch(c)
		if m == nil {
			continue
		}
		if realm, err := url.Parse(m[1] + m[2]); err == nil && realm.Host != "" { // a Basic realm is only a name
			if r.realms == nil {
				r.realms = map[string]bool{}
			}
			r.realms[realm.Host] = true
		}
	}
}

// wasChallenged tells whether the registry has asked for credentials.
func (r *route) wasChallenged() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.challenged
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
