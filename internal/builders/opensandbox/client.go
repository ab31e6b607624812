package opensandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

const (
	apiKeyHeader      = "OPEN-SANDBOX-API-KEY"
	maxAttempts       = 4
	defaultRetryDelay = 250 * time.Millisecond
	maxRetryDelay     = 10 * time.Second
)

// client is a small typed client of the lifecycle API.
type client struct {
	base       *url.URL
	apiKey     builders.Secret
	http       *http.Client
	retryDelay time.Duration
}

// call sends one lifecycle request and decodes a 2xx JSON answer into out (when non-nil).
// 429 is retried for every call (the server refused it before doing anything); 5xx and transport
// errors only for idempotent ones, since a retried POST could create a second sandbox or snapshot.
func (c *client) call(ctx context.Context, method, path string, query url.Values, in, out any) error {
	name := "/" + path // for messages, relative to the lifecycle base
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil { // secrets are revealed only here
			return fmt.Errorf("opensandbox: encoding %s %s: %w", method, name, err)
		}
	}
	idempotent := method == http.MethodGet || method == http.MethodDelete
	for attempt := 1; ; attempt++ {
		resp, err := c.send(ctx, method, path, query, body)
		if err != nil {
			if ctx.Err() != nil || !idempotent || attempt == maxAttempts {
				return err
			}
			if err := c.backoff(ctx, attempt, ""); err != nil {
				return err
			}
			continue
		}
		retryable := resp.StatusCode == http.StatusTooManyRequests ||
			(idempotent && resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented)
		if retryable && attempt < maxAttempts {
			apihttp.Drain(resp)
			if err := c.backoff(ctx, attempt, resp.Header.Get("Retry-After")); err != nil {
				return err
			}
			continue
		}
		return c.scrubbed(decode(resp, method, name, out), in)
	}
}

func (c *client) send(ctx context.Context, method, path string, query url.Values, body []byte) (*http.Response, error) {
	u := c.base.JoinPath(path)
	u.RawQuery = query.Encode()
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return nil, fmt.Errorf("opensandbox: %s /%s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if !c.apiKey.IsEmpty() {
		req.Header.Set(apiKeyHeader, c.apiKey.Reveal())
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("opensandbox: %s /%s: %w", method, path, apihttp.UnwrapURLError(err))
	}
	return resp, nil
}

func decode(resp *http.Response, method, path string, out any) error {
	defer apihttp.Drain(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, apihttp.MaxErrorBody))
		return parseAPIError(resp, body, method, path)
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("opensandbox: %s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// backoff waits before attempt+1: Retry-After when the server sent one, else exponential.
func (c *client) backoff(ctx context.Context, attempt int, retryAfter string) error {
	delay := c.retryDelay << (attempt - 1)
	if d, ok := apihttp.ParseRetryAfter(retryAfter, time.Now()); ok {
		delay = d
	}
	delay = min(delay, maxRetryDelay)
	return apihttp.Sleep(ctx, delay)
}

func asAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}
