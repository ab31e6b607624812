package daytonaemu

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

const testKey = "dtn_test_key"

// client calls the emulator's API as the SDK does: Bearer key, JSON bodies.
type client struct {
	t   *testing.T
	s   *Server
	key string
}

func newClient(t *testing.T, opts Options) *client {
	t.Helper()
	opts.APIKey = testKey
	return &client{t: t, s: NewTestServer(t, opts), key: testKey}
}

// call sends method path (under /api unless it starts with /_ or /toolbox or /proxy) with body and
// returns the status and the decoded JSON answer (a string for text).
func (c *client) call(method, path string, body any) (int, map[string]any) {
	c.t.Helper()
	status, raw := c.raw(method, path, body)
	var out map[string]any
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
	return status, out
}

func (c *client) raw(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	url := c.s.URL + path
	if path[1] != '_' && !bytes.HasPrefix([]byte(path), []byte("/toolbox")) && !bytes.HasPrefix([]byte(path), []byte("/proxy")) {
		url = c.s.URL + APIPath + path
	}
	req, err := http.NewRequestWithContext(c.t.Context(), method, url, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// must calls and fails the test unless the answer has status want.
func (c *client) must(want int, method, path string, body any) map[string]any {
	c.t.Helper()
	status, out := c.call(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s: %d %v, want %d", method, path, status, out, want)
	}
	return out
}

// refused calls and checks the answer is status with message.
func (c *client) refused(status int, message, method, path string, body any) {
	c.t.Helper()
	got, out := c.call(method, path, body)
	if got != status || out["message"] != message {
		c.t.Errorf("%s %s: %d %q, want %d %q", method, path, got, out["message"], status, message)
	}
}

// states polls GET /snapshots/{idOrName} until a terminal state and returns every state seen,
// the create's answer first.
func (c *client) states(created map[string]any) ([]string, map[string]any) {
	c.t.Helper()
	seen := []string{str(created, "state")}
	sn := created
	for i := 0; i < 20 && !terminal(str(sn, "state")); i++ {
		sn = c.must(http.StatusOK, http.MethodGet, "/snapshots/"+str(created, "name"), nil)
		if st := str(sn, "state"); st != seen[len(seen)-1] {
			seen = append(seen, st)
		}
	}
	return seen, sn
}

func terminal(state string) bool {
	return state == StateActive || state == StateError || state == StateBuildFailed
}

// str is m[key] as a string ("" when it is not one).
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}
