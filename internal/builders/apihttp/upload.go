package apihttp

import (
	"io"
	"net/http"
)

// Upload is a request body read as it is sent, never held whole (a large file). Open gives it
// afresh for each try; Size is its exact length, sent as the Content-Length (a chunked upload is
// refused by some servers and proxies).
type Upload struct {
	Open func() (io.ReadCloser, error)
	Size int64
}

// attach makes u the body of req; a nil Upload leaves req as it is. The transport closes the body,
// sent or not.
func (u *Upload) attach(req *http.Request) error {
	if u == nil {
		return nil
	}
	body, err := u.Open()
	if err != nil {
		return err
	}
	req.Body, req.ContentLength, req.GetBody = body, u.Size, u.Open
	return nil
}
