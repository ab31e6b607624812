package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/registrylogin"
)

// backendSet hands resources the builder of each backend, opened on first use so that a backend
// nobody uses needs no configuration.
type backendSet struct {
	settings builders.Settings
	version  string
	// requestTimeout bounds each API request and each read (request_timeout).
	requestTimeout time.Duration
	// dropFailedCreates: the CLI crashes saving a failed create's state (failedCreateCrashes).
	dropFailedCreates bool
	// registryTransport carries image_digest_check's requests (nil: imagedigest's own).
	registryTransport http.RoundTripper

	mu    sync.Mutex
	cache map[builders.SandboxProvider]builders.Builder
}

func newBackendSet(settings builders.Settings, version string, requestTimeout time.Duration) *backendSet {
	return &backendSet{settings: settings, version: version, requestTimeout: requestTimeout, cache: map[builders.SandboxProvider]builders.Builder{}}
}

// knownLater tells whether err is only a setting whose value Terraform will know at apply.
func knownLater(err error) bool {
	var missing *builders.MissingSettingError
	return errors.As(err, &missing) && missing.Later
}

// notConfigured is the error of a backend Builder cannot open, on the backend attribute: the
// resource, the data source, the list resource and the action all say it alike.
func notConfigured(err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(path.Root("backend"), "Backend not configured", err.Error())
}

// Builder returns (and caches) the builder of the backend named name.
func (b *backendSet) Builder(ctx context.Context, name string) (builders.Builder, error) {
	backend, err := backends.Named(name)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if built, ok := b.cache[backend.Name]; ok {
		return built, nil
	}
	env := builders.Env{Settings: b.settings, UserAgent: "terraform-provider-sandbox/" + b.version, RequestTimeout: b.requestTimeout}
	if backend.RegistryLogin {
		env.RegistryLogin = b.registryLogin()
	}
	built, err := backend.Open(ctx, env)
	if err != nil {
		return nil, err
	}
	b.cache[backend.Name] = built
	return built, nil
}

// registryLogin exchanges aws and gcp registry_auth for a basic login, with the provider's ECR
// endpoint and each token request bounded by request_timeout: for backends that take only basic
// auth, and for resolving digests at plan.
func (b *backendSet) registryLogin() builders.RegistryLoginFunc {
	exchanger := registrylogin.FromSettings(b.settings)
	exchanger.HTTPClient = apihttp.TimeoutClient(b.requestTimeout)
	return exchanger.Login
}

func mustDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}

func backendsFrom(providerData any, diags *diag.Diagnostics) *backendSet {
	if providerData == nil {
		return nil // not configured yet (validation); Configure is called again
	}
	b, ok := providerData.(*backendSet)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *backendSet, got %T; please report this bug", providerData))
	}
	return b
}

// tagger opens the named backend's builder as a Tagger (a backend with tag rules has one).
func (b *backendSet) tagger(ctx context.Context, name string) (builders.Tagger, error) {
	builder, err := b.Builder(ctx, name)
	if err != nil {
		return nil, err
	}
	tagger, ok := builder.(builders.Tagger)
	if !ok {
		return nil, fmt.Errorf("the %s backend has no build tags", name)
	}
	return tagger, nil
}
