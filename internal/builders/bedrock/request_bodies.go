package bedrock

import (
	"bytes"
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// bufferedBodies hands the transport its own copy of each request's body. The SDK closes the body
// it built as soon as an answer's headers arrive, and an event stream's answer
// (InvokeCodeInterpreter's) can arrive before the transport is done with the body: its last read,
// which checks for data past Content-Length, then fails on the closed body, and the transport
// closes the connection under the stream ("use of closed network connection", 3 commands in 60
// against the emulator). The bodies here are small JSON documents.
type bufferedBodies struct{ next aws.HTTPClient }

func (c bufferedBodies) Do(req *http.Request) (*http.Response, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return c.next.Do(req)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return c.next.Do(req)
}
