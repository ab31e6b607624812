package apihttp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// An Upload is opened afresh for each try and sent with its exact length (no chunked body), and
// each opened body is closed.
func TestUploadIsReopenedForEachTry(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Header.Get("Content-Length")+" "+r.Header.Get("Content-Type")+" "+strings.Join(r.TransferEncoding, ",")+string(body))
		if len(got) == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	base, _ := url.Parse(srv.URL)
	c, _ := testClient(base, 2)
	var opened, closed atomic.Int32
	upload := &Upload{Size: 5, Open: func() (io.ReadCloser, error) {
		opened.Add(1)
		return struct {
			io.Reader
			io.Closer
		}{strings.NewReader("bytes"), closer(func() { closed.Add(1) })}, nil
	}}
	if err := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/files/upload", Upload: upload, ContentType: "multipart/form-data", Retry: RetryAll}); err != nil {
		t.Fatal(err)
	}
	if want := "5 multipart/form-data bytes"; len(got) != 2 || got[0] != want || got[1] != want || opened.Load() != 2 || closed.Load() != 2 {
		t.Errorf("received %q, opened %d, closed %d; want twice %q, each closed", got, opened.Load(), closed.Load(), want)
	}
}

type closer func()

func (c closer) Close() error { c(); return nil }
