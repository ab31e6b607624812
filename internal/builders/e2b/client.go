package e2b

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

const (
	apiKeyHeader = "X-API-Key"
	maxAttempts  = 5
	// Backoff between attempts: client.retryBase doubled per attempt, jittered, at most maxRetryDelay.
	// A Retry-After header wins, up to maxRetryAfter.
	defaultRetryBaseDelay = 250 * time.Millisecond
	maxRetryDelay         = 10 * time.Second
	maxRetryAfter         = 60 * time.Second
)

// client is a small typed client of E2B's template API.
type client struct {
	base      *url.URL
	apiKey    builders.Secret
	http      *http.Client
	userAgent string
	retryBase time.Duration
	// wait sleeps between attempts; tests swap it to record delays instead of sleeping.
	wait func(ctx context.Context, d time.Duration) error
}

// request is one API call. secrets are scrubbed from any error text the server echoes back.
type request struct {
	method  string
	path    string
	query   url.Values
	in, out any
	secrets []builders.Secret
	// own429: a 429 is returned to the caller, which waits it out (registerWhenSlotFree).
	own429 bool
}

// do sends r and decodes a 2xx JSON answer into r.out. It retries 429, 5xx (but 501) and
// transport errors, up to maxAttempts. That is safe for every call this client makes: GET and
// DELETE are idempotent, and both POSTs are keyed so that a repeat cannot start a second build
// (see templates.go). Other 4xx answers are final.
func (c *client) do(ctx context.Context, r request) error {
	var body []byte
	if r.in != nil {
		var err error
		if body, err = json.Marshal(r.in); err != nil { // secrets are revealed only here
			return fmt.Errorf("e2b: encoding %s %s: %w", r.method, r.path, err)
		}
	}
	for attempt := 1; ; attempt++ {
		resp, err := c.send(ctx, r, body)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("e2b: %s %s: %w", r.method, r.path, ctx.Err())
			}
			if attempt == maxAttempts {
				return err
			}
			if err := c.backoff(ctx, attempt, ""); err != nil {
				return err
			}
			continue
		}
		if attempt < maxAttempts && retryable(resp.StatusCode) && (!r.own429 || resp.StatusCode != http.StatusTooManyRequests) {
			retryAfter := resp.Header.Get("Retry-After")
			apihttp.Drain(resp)
			if err := c.backoff(ctx, attempt, retryAfter); err != nil {
				return err
			}
			continue
		}
		return c.decode(resp, r)
	}
}

// retryable: 429 (refused before anything happened) and 5xx but 501, which never heals.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || (status >= 500 && status != http.StatusNotImplemented)
}

func (c *client) send(ctx context.Context, r request, body []byte) (*http.Response, error) {
	u := c.base.JoinPath(r.path)
	u.RawQuery = r.query.Encode()
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), reader)
	if err != nil {
		return nil, fmt.Errorf("e2b: %s %s: %w", r.method, r.path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(apiKeyHeader, c.apiKey.Reveal())
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("e2b: %s %s: %w", r.method, r.path, apihttp.UnwrapURLError(err))
	}
	return resp, nil
}

func (c *client) decode(resp *http.Response, r request) error {
	defer apihttp.Drain(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, apihttp.MaxErrorBody))
		apiErr := parseAPIError(resp, body, r.method, r.path)
		apiErr.RetryAfter = resp.Header.Get("Retry-After")
		apiErr.Message = builders.Scrub(apiErr.Message, append(r.secrets, c.apiKey)...)
		return apiErr
	}
	if r.out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(r.out); err != nil {
		return fmt.Errorf("e2b: %s %s: decoding the answer: %w", r.method, r.path, err)
	}
	return nil
}

// backoff waits before attempt+1: Retry-After when the server sent one, else a jittered
// exponential delay.
func (c *client) backoff(ctx context.Context, attempt int, retryAfter string) error {
	delay, ok := apihttp.ParseRetryAfter(retryAfter, time.Now())
	if !ok {
		exp := min(c.retryBase<<(attempt-1), maxRetryDelay)
		delay = exp/2 + rand.N(exp/2+1) // "equal jitter": at least half the delay, so retries spread out
	}
	return c.wait(ctx, min(delay, maxRetryAfter))
}
