package opensandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// largeFile writes a sparse file of size bytes with random blocks at its start, middle and end
// (so its hash says each byte is in its place) and returns its path and SHA-256.
func largeFile(t *testing.T, size int64) (string, string) {
	t.Helper()
	local := filepath.Join(t.TempDir(), "blob.bin")
	f, err := os.Create(local)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 1<<20)
	random := rand.New(rand.NewPCG(31, 2))
	for _, at := range []int64{0, size/2 + 12345, size - int64(len(block))} {
		for i := range block {
			block[i] = byte(random.Uint32())
		}
		if _, err := f.WriteAt(block, at); err != nil {
			t.Fatal(err)
		}
	}
	hash := sha256.New()
	if _, err := io.Copy(hash, io.NewSectionReader(f, 0, size)); err != nil {
		t.Fatal(err)
	}
	return local, hex.EncodeToString(hash.Sum(nil))
}

// heapPeak samples the heap in use until stop, and returns how far it rose above where it was.
func heapPeak() (stop func() uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	var peak atomic.Uint64
	done, finished := make(chan struct{}), sync.WaitGroup{}
	finished.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak.Store(max(peak.Load(), m.HeapInuse))
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond): // a file held whole stays for far longer
			}
		}
	})
	return func() uint64 {
		close(done)
		finished.Wait()
		return max(peak.Load(), base) - base
	}
}

// TestLargeFileStepIsStreamed: a file step's file is read as it is sent, never held whole: a
// 256 MiB file reaches execd byte for byte while the heap (the emulator's included, which hashes
// it as it arrives) rises by a small fraction of its size. Read whole, it rose by twice the size.
func TestLargeFileStepIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 256 MiB")
	}
	const size = 256 << 20
	local, want := largeFile(t, size)
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("big-file")
	s.Steps = []builders.BuildStep{{File: &builders.FileStep{Source: local, Destination: "/data/"}}}

	stop := heapPeak()
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	rise := stop()
	if got.Status != builders.StatusSuccess {
		t.Fatalf("build = %s at %s: %s\n%s", got.Status, got.Stage, got.Detail, strings.Join(got.Logs, "\n"))
	}
	var uploads []*opensandboxemu.FileWrite
	for _, c := range h.onlySandbox(t).Calls {
		if c.Upload != nil {
			uploads = append(uploads, c.Upload)
		}
	}
	if len(uploads) != 1 || uploads[0].Path != "/data/blob.bin" || uploads[0].Size != size || uploads[0].SHA256 != want {
		t.Fatalf("execd received %+v, want one upload to /data/blob.bin of %d bytes with SHA-256 %s", uploads, size, want)
	}
	if rise > size/8 {
		t.Errorf("the heap rose by %d MiB while a %d MiB file was placed: more than an eighth of it", rise>>20, size>>20)
	}
	t.Logf("heap rise during the build: %d MiB for a %d MiB file", rise>>20, size>>20)
}
