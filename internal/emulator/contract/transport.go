package contract

import (
	"bytes"
	"io"
	"net/http"
)

// Transport returns a RoundTripper that validates each exchange and passes it on to base
// (http.DefaultTransport when nil), so a client under test keeps its own transport.
func (v *Validator) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return validatingTransport{v: v, next: base}
}

// Client returns an HTTP client whose traffic is validated.
func (v *Validator) Client() *http.Client { return &http.Client{Transport: v.Transport(nil)} }

type validatingTransport struct {
	v    *Validator
	next http.RoundTripper
}

func (t validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		_ = req.Body.Close()
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.v.check(req, body, nil) // the request still has to be valid
		return nil, err
	}
	respBody, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil { // the answer broke off: the client sees the error, as it would without the validator
		t.v.check(req, body, nil)
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(respBody))
	t.v.check(req, body, &response{status: resp.StatusCode, header: resp.Header, body: respBody})
	return resp, nil
}
