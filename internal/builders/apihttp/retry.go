package apihttp

import (
	"cmp"
	"context"
	"math/rand/v2"
	"net/http"
	"time"
)

// Retry defaults: the first backoff, doubled per attempt up to the cap, jittered.
const (
	DefaultBaseDelay = 250 * time.Millisecond
	DefaultMaxDelay  = 10 * time.Second
)

// MaxRetryAfter caps a server's Retry-After, for both backends. One minute rather than ten
// seconds: a rate limiter that asks for 30 s and is retried after 10 only refuses again and burns
// an attempt of a small budget, while ctx still ends any wait early; the cap only stops a
// misconfigured server from parking a plan for its 24 h ParseRetryAfter bound.
const MaxRetryAfter = 60 * time.Second

// RetryPolicy is a backend's retry budget and backoff.
type RetryPolicy struct {
	MaxAttempts int           // tries in all, the first included; zero means 1
	BaseDelay   time.Duration // first backoff; zero means DefaultBaseDelay
	MaxDelay    time.Duration // cap of the exponential backoff; zero means DefaultMaxDelay
}

func (p RetryPolicy) attempts() int { return max(p.MaxAttempts, 1) }

// RetryClass says which failures of a request may be tried again: retryable are 429 (the server
// refused before doing anything), 5xx but 501 (which never heals) and transport errors.
type RetryClass int

const (
	// RetryByMethod is RetryAll for idempotent methods and RetryOnly429 for the rest: a repeated
	// POST that reached the server could create a second sandbox or snapshot.
	RetryByMethod RetryClass = iota
	// RetryAll retries every retryable failure: the request is idempotent or keyed.
	RetryAll
	// RetryOnly429 retries only a refused request.
	RetryOnly429
	// RetryExcept429 retries 5xx and transport errors but returns 429: the caller waits it out.
	RetryExcept429
)

func (c RetryClass) resolve(method string) RetryClass {
	if c != RetryByMethod {
		return c
	}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return RetryAll
	}
	return RetryOnly429
}

func (c RetryClass) retriesStatus(status int) bool {
	switch {
	case status == http.StatusTooManyRequests:
		return c != RetryExcept429
	case status >= 500 && status != http.StatusNotImplemented:
		return c != RetryOnly429
	}
	return false
}

func (c RetryClass) retriesTransport() bool { return c != RetryOnly429 }

// backoff waits before attempt+1: Retry-After when the server sent one (up to MaxRetryAfter),
// else the exponential delay with "equal jitter": at least half of it, so that clients refused
// together spread out but never retry at once.
func (c *Client) backoff(ctx context.Context, attempt int, retryAfter string) error {
	delay, ok := ParseRetryAfter(retryAfter, time.Now())
	if !ok {
		exp := min(cmp.Or(c.Retry.BaseDelay, DefaultBaseDelay)<<(attempt-1), cmp.Or(c.Retry.MaxDelay, DefaultMaxDelay))
		delay = exp/2 + rand.N(exp/2+1)
	}
	return c.wait(ctx, min(delay, MaxRetryAfter))
}

// wait is c.Wait, or Sleep.
func (c *Client) wait(ctx context.Context, d time.Duration) error {
	if c.Wait != nil {
		return c.Wait(ctx, d)
	}
	return Sleep(ctx, d)
}

// WaitRetryAfter waits out a 429 the caller owns (RetryExcept429): err's Retry-After, up to
// MaxRetryAfter, or fallback when the server sent none.
func (c *Client) WaitRetryAfter(ctx context.Context, err error, fallback time.Duration) error {
	delay, ok := RetryAfterOf(err)
	if !ok {
		delay = fallback
	}
	return c.wait(ctx, min(delay, MaxRetryAfter))
}
