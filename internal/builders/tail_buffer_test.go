package builders

import (
	"bytes"
	"testing"
)

func TestTailBufferKeepsTheLastBytes(t *testing.T) {
	tail := TailBuffer{Max: 5}
	for _, w := range []string{"ab", "cde", "fg", "", "0123456789", "x"} {
		_, _ = tail.Write([]byte(w)) // it never fails
	}
	if got := string(tail.Bytes()); got != "6789x" {
		t.Fatalf("tail = %q, want %q", got, "6789x")
	}
	if cap(tail.Bytes()) > 2*5+10 {
		t.Fatalf("tail grew to capacity %d", cap(tail.Bytes()))
	}
	var big TailBuffer
	big.Max = 3
	_, _ = big.Write(bytes.Repeat([]byte("y"), 1<<20))
	if len(big.Bytes()) != 3 {
		t.Fatalf("kept %d bytes of a 1 MiB write, want 3", len(big.Bytes()))
	}
}
