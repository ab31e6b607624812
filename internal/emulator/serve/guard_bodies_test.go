package serve

import (
	"bytes"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// streamingRecorder is a recorder that reads bodies to "/upload" as they arrive, counting them.
type streamingRecorder struct {
	recorder
	streamed atomic.Int64
}

func (s *streamingRecorder) Streams(r *http.Request) bool { return r.URL.Path == "/upload" }

func (s *streamingRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/upload" {
		n, _ := io.Copy(io.Discard, r.Body)
		s.streamed.Store(n)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.recorder.ServeHTTP(w, r)
}

// An upload a Streamer reads as it arrives passes the guard unread and of any size; its other
// requests keep the bound.
func TestGuardPassesStreamedUploads(t *testing.T) {
	rec := &streamingRecorder{}
	url := ForTest(t, rec)
	large := strings.Repeat("u", 16*MaxRequestBody)
	if got := send(t, url+"/upload", "", nil, strings.NewReader(large)); got != http.StatusNoContent || rec.streamed.Load() != int64(len(large)) {
		t.Errorf("a streamed upload of %d bytes: %d, %d bytes arrived", len(large), got, rec.streamed.Load())
	}
	if got := send(t, url+"/v3/templates", "", nil, strings.NewReader(large)); got != http.StatusRequestEntityTooLarge || rec.calls.Load() != 0 {
		t.Errorf("the same body to another path: %d, reached the emulator %d times; want 413 and never", got, rec.calls.Load())
	}
}

// Bodies that stall after 7 MiB (issue 31: 40 of them held 345 MiB) are refused once they pass
// MaxRequestBody and are not held: the heap, once every one of them is sent, holds a small part of them.
func TestGuardHoldsNoStalledBodies(t *testing.T) {
	const stalled, size = 40, 7 << 20
	url := ForTest(t, &recorder{})
	chunk := bytes.Repeat([]byte("s"), size)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var sent, answered sync.WaitGroup
	statuses := make(chan int, stalled)
	writers := make([]*io.PipeWriter, stalled)
	for i := range writers {
		body, write := io.Pipe()
		writers[i] = write
		answered.Go(func() {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/v3/templates", body)
			if resp, err := http.DefaultClient.Do(req); err == nil { // a refused body may also end the connection first
				_ = resp.Body.Close()
				statuses <- resp.StatusCode
			}
		})
		sent.Go(func() { _, _ = write.Write(chunk) }) // returns once the server read it all, or refused it; the body never ends
	}
	sent.Wait()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	held := int64(after.HeapInuse) - int64(before.HeapInuse)
	if held > stalled*size/8 {
		t.Errorf("%d stalled bodies of %d MiB: the heap holds %d MiB more", stalled, size>>20, held>>20)
	}
	t.Logf("%d stalled bodies of %d MiB: the heap holds %d MiB more", stalled, size>>20, held>>20)
	for _, w := range writers {
		_ = w.Close()
	}
	answered.Wait()
	close(statuses)
	for status := range statuses {
		if status != http.StatusRequestEntityTooLarge {
			t.Fatalf("a stalled body was answered %d, want 413", status)
		}
	}
}
