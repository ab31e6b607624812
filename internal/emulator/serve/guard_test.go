package serve

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// recorder is an emulator stand-in that counts what reached it and keeps the last body.
type recorder struct {
	calls atomic.Int32
	body  atomic.Value
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.calls.Add(1)
	b, _ := io.ReadAll(r.Body)
	rec.body.Store(string(b))
	w.WriteHeader(http.StatusNoContent)
}

// send POSTs body to url, addressed to host ("": the URL's own) with header.
func send(t *testing.T, url, host string, header http.Header, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// An emulator answers only requests addressed to this machine: a DNS-rebinding page reaches
// 127.0.0.1 under its own host name and is refused, as is a cross-origin browser request.
func TestGuardRefusesOtherHostsAndOrigins(t *testing.T) {
	rec := &recorder{}
	url := ForTest(t, rec)
	for _, tt := range []struct {
		name, host string
		header     http.Header
		want       int
	}{
		{"its own address", "", nil, http.StatusNoContent},
		{"localhost", "localhost:1234", nil, http.StatusNoContent},
		{"IPv6 loopback", "[::1]:1234", nil, http.StatusNoContent},
		{"a rebinding page's host name", "attacker.example:8080", nil, http.StatusForbidden},
		{"a LAN address", "192.168.1.20", nil, http.StatusForbidden},
		{"a cross-site browser request", "", http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{"another origin", "", http.Header{"Origin": {"https://attacker.example"}}, http.StatusForbidden},
		{"a same-origin browser request", "", http.Header{"Sec-Fetch-Site": {"same-origin"}}, http.StatusNoContent},
	} {
		before := rec.calls.Load()
		got := send(t, url+"/_emulator/faults", tt.host, tt.header, strings.NewReader(`{"count":1}`))
		reached := rec.calls.Load() > before
		if got != tt.want || reached != (tt.want == http.StatusNoContent) {
			t.Errorf("%s: %d (reached the emulator: %v), want %d", tt.name, got, reached, tt.want)
		}
	}
}

// A body over MaxRequestBody is answered 413 before the emulator sees any of it, whether its
// length is declared or streamed; one at the limit arrives whole.
func TestGuardCapsBodies(t *testing.T) {
	rec := &recorder{}
	url := ForTest(t, rec)
	if got := send(t, url+"/v3/templates", "", nil, strings.NewReader(strings.Repeat("x", MaxRequestBody+1))); got != http.StatusRequestEntityTooLarge {
		t.Errorf("declared oversize body: %d, want 413", got)
	}
	streamed := io.MultiReader(strings.NewReader(strings.Repeat("y", MaxRequestBody)), strings.NewReader("y"))
	if got := send(t, url+"/v3/templates", "", nil, io.NopCloser(streamed)); got != http.StatusRequestEntityTooLarge {
		t.Errorf("streamed oversize body: %d, want 413", got)
	}
	if n := rec.calls.Load(); n != 0 {
		t.Errorf("%d oversize requests reached the emulator", n)
	}
	if got := send(t, url+"/v3/templates", "", nil, strings.NewReader(strings.Repeat("z", MaxRequestBody))); got != http.StatusNoContent {
		t.Errorf("a body at the limit: %d, want 204", got)
	}
	if body, _ := rec.body.Load().(string); len(body) != MaxRequestBody {
		t.Errorf("the emulator got %d bytes, want %d", len(body), MaxRequestBody)
	}
}
