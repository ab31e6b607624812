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
	"strconv"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

const (
	apiKeyHeader      = "OPEN-SANDBOX-API-KEY"
	maxAttempts       = 4
	defaultRetryDelay = 250 * time.Millisecond
	maxRetryDelay     = 10 * time.Second
	maxErrorBody      = 64 << 10
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
			drain(resp)
			if err := c.backoff(ctx, attempt, resp.Header.Get("Retry-After")); err != nil {
				return err
			}
			continue
		}
		return decode(resp, method, name, out)
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
		return nil, fmt.Errorf("opensandbox: %s /%s: %w", method, path, unwrapURLError(err))
	}
	return resp, nil
}

func decode(resp *http.Response, method, path string, out any) error {
	defer drain(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
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
	if secs, err := strconv.Atoi(strings.TrimSpace(retryAfter)); err == nil && secs >= 0 {
		delay = time.Duration(secs) * time.Second
	}
	delay = min(delay, maxRetryDelay)
	return sleep(ctx, delay)
}

// sleep waits d or until ctx ends, returning the ctx error (wrapped, so StageOf sees it).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("opensandbox: interrupted: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	_ = resp.Body.Close()
}

// unwrapURLError drops *url.Error's quoting of the full URL but keeps the cause for errors.Is.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func asAPIError(err error) (*APIError, bool) {
	var e *APIError
	ok := errors.As(err, &e)
	return e, ok
}
