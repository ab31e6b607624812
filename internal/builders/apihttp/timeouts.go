package apihttp

import (
	"net"
	"net/http"
	"time"
)

// TimeoutClient bounds every request by timeout (the provider's request_timeout); zero means no
// bound beyond the caller's context.
func TimeoutClient(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout}
}

// StreamingClient bounds the wait for each answer's headers by timeout but not the reading of its
// body: OpenSandbox's execd streams a package install's output for as long as it runs (the
// build's own timeout bounds that). Zero means no bound beyond the caller's context.
func StreamingClient(timeout time.Duration) *http.Client {
	if timeout <= 0 {
		return &http.Client{}
	}
	return &http.Client{Transport: &http.Transport{ // http.DefaultTransport's settings, bounded by timeout
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   min(timeout, 10*time.Second),
		ExpectContinueTimeout: time.Second,
		ResponseHeaderTimeout: timeout,
	}}
}
