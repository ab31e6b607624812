package apihttp

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// Bounds on what a client reads of an answer. A JSON answer is small (E2B lists a large team's
// templates in a few MB); a stream (execd's command output) is read as it comes and kept only
// in part, so it may be longer, but not without end.
const (
	MaxAnswerBody = 16 << 20
	MaxStreamBody = 256 << 20
)

// body is resp's body, bounded: reading past limit fails with an error naming the endpoint, so a
// server (or something posing as one) cannot exhaust the provider's memory.
func (c *Client) body(resp *http.Response, r Request, limit int64) *boundedBody {
	return &boundedBody{body: resp.Body, left: limit, err: fmt.Errorf("%s: %s %s: the answer is larger than %d MiB: not one the %s API gives",
		c.prefix(), r.Method, r.Path, limit>>20, c.Name)}
}

// boundedBody is a body that fails once more than its limit was read.
type boundedBody struct {
	body io.Reader
	left int64
	err  error
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more than allowed tells an answer at the limit from a longer one
	}
	n, err := b.body.Read(p)
	if int64(n) > b.left {
		n, b.left = int(b.left), -1
		return n, b.err
	}
	b.left -= int64(n)
	return n, err
}

// readJSON reads a 2xx answer to a JSON request into out (nil: the answer is not used). The
// answer must be empty or JSON: an HTML page (a proxy's, a captive portal's) taken for success
// would leave a build waiting for what never started. A server that leaves the media type out
// gets text/plain from Go's sniffing, so that one is judged by the body alone.
func (c *Client) readJSON(resp *http.Response, r Request, out any) error {
	bounded := c.body(resp, r, MaxAnswerBody)
	body, err := io.ReadAll(bounded)
	switch {
	case errors.Is(err, bounded.err):
		return err
	case err != nil:
		return fmt.Errorf("%s: %s %s: reading the answer: %w", c.prefix(), r.Method, r.Path, UnwrapURLError(err))
	}
	if len(bytes.TrimSpace(body)) == 0 && out == nil {
		return nil
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media != "" && media != "text/plain" &&
		media != "application/json" && !strings.HasSuffix(media, "+json") {
		return c.badAnswer(resp, r, media+", not JSON")
	}
	if out == nil {
		if !json.Valid(body) {
			return c.badAnswer(resp, r, "not JSON")
		}
		return nil
	}
	if problem := answerShape(body, cmp.Or(r.MaxItems, MaxAnswerItems)); problem != "" {
		return fmt.Errorf("%s: %s %s: the answer %s: not one the %s API gives", c.prefix(), r.Method, r.Path, problem, c.Name)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s: %s %s: decoding the answer: %w", c.prefix(), r.Method, r.Path, err)
	}
	return nil
}

// badAnswer says that something other than the backend's API answered.
func (c *Client) badAnswer(resp *http.Response, r Request, what string) error {
	return fmt.Errorf("%s: %s %s: the answer (HTTP %d) is %s: something other than the %s API answered (a proxy or a login page?)",
		c.prefix(), r.Method, r.Path, resp.StatusCode, what, c.Name)
}
