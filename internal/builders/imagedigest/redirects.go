package imagedigest

import (
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// maxRedirects bounds the redirects one digest check follows, all its requests together: Go's
// own limit per request, which go-containerregistry's client for manifests replaces with none,
// so that a manifest answering 302 to itself made one check send requests until its timeout.
const maxRedirects = apihttp.MaxRedirects

// redirectBudget sits under go-containerregistry's clients and counts the requests they send
// because of a redirect (http.Client sets their Response); past maxRedirects it sends no more.
type redirectBudget struct {
	next     http.RoundTripper
	followed atomic.Int32
}

func (b *redirectBudget) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Response != nil && b.followed.Add(1) > maxRedirects {
		shown := url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path, RawPath: req.URL.RawPath}
		return nil, &refusedError{fmt.Sprintf("stopped after %d redirects (the last to %s): the registry's answers redirect in a loop", maxRedirects, shown.String())}
	}
	return b.next.RoundTrip(req)
}
