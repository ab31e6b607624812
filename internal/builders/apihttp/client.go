package apihttp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// DefaultUserAgent is sent when Client.UserAgent is empty.
const DefaultUserAgent = "terraform-provider-sandbox"

// Client is one backend API. What differs between backends is data here, never another loop.
type Client struct {
	// Name is the backend as users know it ("E2B"); messages start with it in lower case.
	Name    string
	BaseURL *url.URL
	// HTTP sends the requests (nil: http.DefaultClient); its CheckRedirect is never used: Do
	// follows a redirect only on the same origin, and at most MaxRedirects (redirect.go).
	HTTP      *http.Client
	UserAgent string // empty means DefaultUserAgent
	// APIKey goes in the APIKeyHeader of every request; an empty key sends no header.
	APIKeyHeader string
	APIKey       builders.Secret
	// Header is sent with every request (execd's endpoint headers).
	Header map[string]string
	// Secrets are scrubbed from every error, with APIKey and the request's own.
	Secrets []builders.Secret
	Retry   RetryPolicy
	// ParseError reads the backend's error body; nil keeps just the status.
	ParseError ErrorParser
	// AuthStatuses are the answers by which the backend refuses the API credentials; AuthHint
	// names the setting to fix (see AtStage).
	AuthStatuses []int
	AuthHint     string
	// Wait sleeps between tries; nil means Sleep. Tests swap it to record delays.
	Wait func(ctx context.Context, d time.Duration) error
}

// CreateFinish is how long a request that creates something may run on after an interrupt (Request.Finish).
const CreateFinish = 10 * time.Second

// Request is one API call.
type Request struct {
	Method string
	Path   string // joined to the client's BaseURL
	Query  url.Values
	In     any // JSON-encoded as the body when non-nil
	// Body is sent as it is, with ContentType, when In is nil (a multipart upload).
	Body []byte
	// Upload, when set instead, is a body streamed as it is sent, with ContentType (upload.go).
	Upload      *Upload
	ContentType string
	Out         any // a 2xx JSON answer is decoded into it when non-nil
	// MaxItems bounds the items of the answer decoded into Out (answer_shape.go); 0 means MaxAnswerItems.
	MaxItems int
	// Read, when set, reads a 2xx answer itself instead of Out (a stream).
	Read func(io.Reader) error
	// Secrets the body reveals: scrubbed from any error text the server echoes back.
	Secrets []builders.Secret
	Retry   RetryClass
	// Finish, when set, lets the request run on for up to this long after ctx is cancelled: for a
	// request that creates something, so an interrupt cannot land between the server creating it
	// and the caller learning what it created (and recording it before it stops).
	Finish time.Duration
}

// Do sends r and reads a 2xx answer into r.Out (or r.Read). Failed tries are repeated as r's
// retry class allows, up to c.Retry's attempts; any other non-2xx answer is an *Error.
func (c *Client) Do(ctx context.Context, r Request) error {
	if r.Finish > 0 {
		if err := ctx.Err(); err != nil { // interrupted before it was sent: nothing to finish
			return fmt.Errorf("%s: %s %s: %w", c.prefix(), r.Method, r.Path, err)
		}
		var stop context.CancelFunc
		ctx, stop = outliving(ctx, r.Finish)
		defer stop()
	}
	body := r.Body
	if r.In != nil {
		var err error
		if body, err = json.Marshal(r.In); err != nil { // secrets are revealed only here
			return fmt.Errorf("%s: encoding %s %s: %w", c.prefix(), r.Method, r.Path, err)
		}
	}
	class := r.Retry.resolve(r.Method)
	for attempt := 1; ; attempt++ {
		last := attempt >= c.Retry.attempts()
		resp, err := c.send(ctx, r, body)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: %s %s: %w", c.prefix(), r.Method, r.Path, ctx.Err())
			}
			if _, refused := errors.AsType[*RedirectError](err); refused || last || !class.retriesTransport() {
				return err
			}
			if err := c.backoff(ctx, attempt, ""); err != nil {
				return err
			}
			continue
		}
		if !last && class.retriesStatus(resp.StatusCode) {
			retryAfter := resp.Header.Get("Retry-After")
			Drain(resp)
			if err := c.backoff(ctx, attempt, retryAfter); err != nil {
				return err
			}
			continue
		}
		return c.read(resp, r)
	}
}

func (c *Client) send(ctx context.Context, r Request, body []byte) (*http.Response, error) {
	u := c.BaseURL.JoinPath(r.Path)
	u.RawQuery = r.Query.Encode()
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), reader)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", c.prefix(), r.Method, r.Path, err)
	}
	if err := r.Upload.attach(req); err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", c.prefix(), r.Method, r.Path, err)
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	if r.Read == nil { // a stream comes in the endpoint's own media type
		req.Header.Set("Accept", "application/json")
	}
	if body != nil || r.Upload != nil {
		req.Header.Set("Content-Type", cmp.Or(r.ContentType, "application/json"))
	}
	req.Header.Set("User-Agent", cmp.Or(c.UserAgent, DefaultUserAgent))
	if !c.APIKey.IsEmpty() {
		req.Header.Set(c.APIKeyHeader, c.APIKey.Reveal())
	}
	resp, err := c.following(c.secrets(r)).Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", c.prefix(), r.Method, r.Path, UnwrapURLError(err))
	}
	return resp, nil
}

// read turns a non-2xx answer into an *Error (an *AuthError when it refuses the API key: the one
// place that classifies it) and reads a 2xx one as r asks, every body through one bounded reader
// (answer.go).
func (c *Client) read(resp *http.Response, r Request) error {
	defer Drain(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(c.body(resp, r, MaxErrorBody)) // what fits is enough to say what went wrong
		e := c.newError(resp, body, r)
		if e.authHint != "" {
			return &AuthError{Err: e}
		}
		return e
	}
	if r.Read != nil {
		return r.Read(c.body(resp, r, MaxStreamBody)) // the reader's errors say what went wrong in its own terms
	}
	return c.readJSON(resp, r, r.Out)
}

func (c *Client) newError(resp *http.Response, body []byte, r Request) *Error {
	e := &Error{Backend: c.Name, Method: r.Method, Path: r.Path, StatusCode: resp.StatusCode,
		RetryAfter: resp.Header.Get("Retry-After")}
	if c.ParseError != nil {
		c.ParseError(e, resp.Header, body)
	}
	if slices.Contains(c.AuthStatuses, e.StatusCode) {
		e.authHint = cmp.Or(c.AuthHint, "check the API key")
	}
	e.scrub(c.secrets(r))
	return e
}

// secrets are those in play for r: scrubbed from anything a server's answer makes us say.
func (c *Client) secrets(r Request) []builders.Secret {
	return append(append([]builders.Secret{c.APIKey}, c.Secrets...), r.Secrets...)
}

func (c *Client) prefix() string { return strings.ToLower(c.Name) }

// outliving is a context that is cancelled grace after ctx is done, not at once.
func outliving(ctx context.Context, grace time.Duration) (context.Context, context.CancelFunc) {
	detached, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(grace, cancel) })
	return detached, func() { stop(); cancel() }
}
