// Package apihttp is the one HTTP core of the hand-written backend clients (E2B, OpenSandbox):
// Client.Do sends a request, retries what its retry class allows, and turns a non-2xx answer into
// an *Error scrubbed of every secret in play. Each backend keeps only its endpoints and its
// error-body parser. This file holds the small helpers: waiting, Retry-After, draining answers
// and unquoting transport errors.
package apihttp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MaxErrorBody bounds how much of an error answer a client reads.
const MaxErrorBody = 64 << 10

// Sleep waits d or until ctx ends, returning the ctx error wrapped so builders.StageOf sees it.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("interrupted: %w", ctx.Err())
	case <-t.C:
		return nil
	}
}

// maxRetryAfterSeconds bounds what ParseRetryAfter returns, so a huge value cannot overflow
// time.Duration into a negative (immediate) retry; callers clamp further to their own maximum.
const maxRetryAfterSeconds = 24 * 60 * 60

// ParseRetryAfter reads Retry-After as seconds or as an HTTP date; a date in the past means now.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil && secs >= 0 {
		return time.Duration(min(secs, maxRetryAfterSeconds)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return min(max(at.Sub(now), 0), maxRetryAfterSeconds*time.Second), true
	}
	return 0, false
}

// Drain reads what is left of an answer (bounded) and closes it, so the connection is reused.
func Drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxErrorBody))
	_ = resp.Body.Close()
}

// UnwrapURLError drops *url.Error's quoting of the full URL but keeps the cause for errors.Is.
func UnwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
