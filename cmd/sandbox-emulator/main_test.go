package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRunPrintsTheURLAndServesUntilCancelled: the first line is E2B_API_URL=..., the emulator
// answers there with the configured key, and cancelling stops it cleanly.
func TestRunPrintsTheURLAndServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-api-key", "k", "-build-duration", "1s"}, w) }()

	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "E2B_API_URL=http://127.0.0.1:")
	if !ok || url == "" {
		t.Fatalf("first line = %q, want E2B_API_URL=http://127.0.0.1:PORT", line)
	}
	base := strings.TrimPrefix(strings.TrimSpace(line), "E2B_API_URL=")
	for key, want := range map[string]int{"k": 200, "wrong": 401} {
		req, _ := http.NewRequest("GET", base+"/templates", nil)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("key %q = %d, want %d", key, resp.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run after cancel = %v, want nil", err)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	if err := run(t.Context(), []string{"-build-duration", "soon"}, io.Discard); err == nil {
		t.Error("a bad duration must fail")
	}
}
