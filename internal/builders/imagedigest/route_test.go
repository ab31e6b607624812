package imagedigest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest/imagedigesttest"
)

const (
	ecrHost     = "123456789012.dkr.ecr.eu-west-1.amazonaws.com"
	googleHost  = "europe-docker.pkg.dev"
	anyRegistry = "registry.sink.test"
	tokenHost   = "auth.sink.test"
	ecrToken    = "ecr-token-password"
	googleToken = "ya29.google-access-token"
)

// fakeLogin is registrylogin's mapping with the exchanges done: basic passes through, an AWS key
// becomes an ECR token, a Google key an access token. It counts the tokens it minted.
type fakeLogin struct{ minted atomic.Int32 }

func (f *fakeLogin) login(_ context.Context, _ string, auth builders.RegistryAuth) (string, builders.Secret, error) {
	switch auth := auth.(type) {
	case *builders.BasicAuth:
		return auth.Username, auth.Password, nil
	case *builders.AWSAuth:
		f.minted.Add(1)
		return "AWS", builders.NewSecret(ecrToken), nil
	case *builders.GCPAuth:
		f.minted.Add(1)
		return "oauth2accesstoken", builders.NewSecret(googleToken), nil
	}
	return "", builders.Secret{}, nil
}

var (
	awsKey    = &builders.AWSAuth{AccessKeyID: "AKID", SecretAccessKey: builders.NewSecret("s"), Region: "eu-west-1"}
	googleKey = &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret("{}")}
)

// A credential goes to the registry that asked for it and to the token service that registry
// names, as Docker sends it, but an ECR token only to its ECR registry and a Google token only
// to Google's hosts: anything else is refused, naming the host, and the sink proves it.
func TestCredentialsGoOnlyWhereTheyAreFor(t *testing.T) {
	for _, tt := range []struct {
		name, host, realm string
		auth              builders.RegistryAuth
		username, secret  string
		wantSeenAt        []string
		wantErr           string
	}{
		{"basic, Basic challenge", anyRegistry, "", basicAuth(password), user, password, []string{anyRegistry}, ""},
		{"basic, token service on another host", anyRegistry, tokenHost, basicAuth(password), user, password, []string{tokenHost}, ""},
		{"ECR token to its registry", ecrHost, "", awsKey, "AWS", ecrToken, []string{ecrHost}, ""},
		{"ECR token asked for by another host", ecrHost, tokenHost, awsKey, "AWS", ecrToken, nil,
			"not sending the registry_auth.aws ECR token to auth.sink.test, which " + ecrHost + " named as its token service"},
		{"Google token to Google's registry", googleHost, googleHost, googleKey, "oauth2accesstoken", googleToken, []string{googleHost}, ""},
		{"Google token asked for by another host", googleHost, tokenHost, googleKey, "oauth2accesstoken", googleToken, nil,
			"not sending the registry_auth.gcp token to auth.sink.test"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sink := imagedigesttest.NewSink(t)
			sink.Registry(tt.host, tt.username, tt.secret, tt.realm)
			digest := sink.Push(t, tt.host, "team/app:main")
			got, err := Resolver{Login: (&fakeLogin{}).login, Transport: sink.Transport}.Resolve(t.Context(), tt.host+"/team/app:main", tt.auth)
			switch {
			case tt.wantErr == "" && (err != nil || got != digest):
				t.Fatalf("Resolve = %q, %v; want %s", got, err, digest)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Resolve error = %v, want one saying %q", err, tt.wantErr)
			}
			if saw := sink.HostsThatSaw(tt.secret); !slices.Equal(saw, tt.wantSeenAt) {
				t.Errorf("the credential reached %v, want %v", saw, tt.wantSeenAt)
			}
		})
	}
}

// A registry that serves the image to anyone is never sent a credential, and no ECR or Google
// token is minted for it.
func TestNothingIsMintedForARegistryThatAsksForNothing(t *testing.T) {
	for _, auth := range []builders.RegistryAuth{awsKey, googleKey, basicAuth(password)} {
		sink := imagedigesttest.NewSink(t)
		host := map[builders.RegistryAuthKind]string{"aws": ecrHost, "gcp": googleHost, "basic": anyRegistry}[auth.Kind()]
		sink.Registry(host, "", "", "")
		digest := sink.Push(t, host, "team/app:main")
		login := &fakeLogin{}
		if got, err := (Resolver{Login: login.login, Transport: sink.Transport}).Resolve(t.Context(), host+"/team/app:main", auth); err != nil || got != digest {
			t.Fatalf("%s: Resolve = %q, %v", auth.Kind(), got, err)
		}
		for _, seen := range sink.Seen() {
			if seen.Password != "" || seen.Bearer != "" {
				t.Errorf("%s: %s %s carried a credential", auth.Kind(), seen.Method, seen.Path)
			}
		}
		if n := login.minted.Load(); n != 0 {
			t.Errorf("%s: %d tokens minted for a registry that asked for none", auth.Kind(), n)
		}
	}
}

// Plain HTTP goes only to a registry on this machine: a private address is asked over TLS or
// not at all, and a link-local one (a cloud's metadata service) never.
func TestPlainHTTPOnlyOnLoopbackAndNeverLinkLocal(t *testing.T) {
	var requests atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("WWW-Authenticate", `Basic realm="x"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(plain.Close)
	toPlain := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, plain.Listener.Addr().String())
	}}
	resolver := Resolver{Login: (&fakeLogin{}).login, Transport: toPlain}

	_, err := resolver.Resolve(t.Context(), "10.1.2.3:5000/team/app:main", basicAuth(password))
	if err == nil || !strings.Contains(err.Error(), "not contacting 10.1.2.3:5000 over plain HTTP") {
		t.Errorf("a private address over plain HTTP: Resolve error = %v", err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d plain HTTP requests reached the private address, want none", n)
	}
	for _, image := range []string{"169.254.169.254/latest/meta-data:x", "[fe80::1]:5000/app:1"} {
		if _, err := resolver.Resolve(t.Context(), image, basicAuth(password)); err == nil || !strings.Contains(err.Error(), "link-local address") {
			t.Errorf("%s: Resolve error = %v, want a refusal", image, err)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached a link-local address, want none", n)
	}
	for address, refused := range map[string]bool{"169.254.169.254:80": true, "[fd00:ec2::254]:80": true, "[fe80::1]:443": true,
		"10.0.0.1:443": false, "127.0.0.1:5000": false, "203.0.113.7:443": false} {
		if err := refuseLinkLocal("tcp", address, nil); (err != nil) != refused {
			t.Errorf("dialling %s: %v, want refused %v", address, err, refused)
		}
	}
}

// A registry's answer is described by its status and error codes; its body (a 30 KB page at
// /v2/, or anything it echoes) never reaches the error.
func TestErrorsNeverEchoTheBody(t *testing.T) {
	const marker = "ECHOED-BODY-MARKER"
	for name, answer := range map[string]struct {
		contentType, body string
		want              string
	}{
		"HTML page":      {"text/html", "<html>" + strings.Repeat(marker+" ", 3000) + "</html>", "GET http://127.0.0.1:"},
		"registry error": {"application/json", `{"errors":[{"code":"DENIED","message":"` + marker + `","detail":"` + marker + `"}]}`, "/v2/ answered HTTP 403 DENIED"},
		"odd error code": {"application/json", `{"errors":[{"code":"` + marker + ` lower","message":"x"}]}`, "/v2/ answered HTTP 403"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", answer.contentType)
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(answer.body))
		}))
		_, err := Resolver{Login: (&fakeLogin{}).login}.Resolve(t.Context(), strings.TrimPrefix(srv.URL, "http://")+"/team/app:main", nil)
		srv.Close()
		if err == nil || strings.Contains(err.Error(), marker) || !strings.Contains(err.Error(), answer.want) {
			t.Errorf("%s: Resolve error = %v, want one saying %q and nothing of the body", name, err, answer.want)
		}
	}
}

// The caller's context bounds the whole resolution: a registry that never answers does not hold
// the plan.
func TestResolveEndsWithTheContext(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Resolver{Login: (&fakeLogin{}).login}.Resolve(ctx, strings.TrimPrefix(hung.URL, "http://")+"/team/app:main", nil)
	if err == nil || !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("Resolve error = %v, want the context's", err)
	}
}
