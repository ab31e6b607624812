package e2bemu_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

func served(t *testing.T, emu *e2bemu.Server, name string) (e2bemu.Served, int) {
	t.Helper()
	resp, err := http.Get(emu.URL + e2bemu.ServedPrefix + name)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var s e2bemu.Served
	_ = json.NewDecoder(resp.Body).Decode(&s)
	return s, resp.StatusCode
}

// TestServedIsTheNewestReadyDefaultBuild: a build tagged default serves only once it is ready, a
// failed newer one leaves the older ready build serving, and the answer carries the start body.
func TestServedIsTheNewestReadyDefaultBuild(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: time.Second, Clock: clock.Now})
	c := newCaller(t, emu)
	if _, status := served(t, emu, "py"); status != http.StatusNotFound {
		t.Fatalf("served of a missing template = %d, want 404", status)
	}

	first := c.create(map[string]any{"name": "py", "cpuCount": 4, "memoryMB": 2048})
	c.start(first, map[string]any{"fromImage": "python:3.12", "startCmd": "python3 -m http.server", "readyCmd": "sleep 1",
		"steps": []any{map[string]any{"type": "RUN", "args": []string{"pip install -- 'numpy'", "root"}}}})
	if _, status := served(t, emu, "py"); status != http.StatusNotFound {
		t.Fatalf("served while the only build runs = %d, want 404", status)
	}
	clock.Advance(time.Second)
	got, status := served(t, emu, "py")
	if status != http.StatusOK || got.BuildID != first.buildID || got.Status != "ready" || got.CPUCount != 4 || got.MemoryMB != 2048 ||
		got.Start == nil || *got.Start.FromImage != "python:3.12" || *got.Start.StartCmd != "python3 -m http.server" ||
		len(got.Start.Steps) != 1 || got.Start.Steps[0].Args[0] != "pip install -- 'numpy'" || got.ReadyCmd != "sleep 1" {
		t.Fatalf("served after the first build = %d %+v, want the first build and its start body", status, got)
	}

	emu.FailBuild("py", "no space left")
	second := c.create(map[string]any{"name": "py"})
	c.start(second, map[string]any{"fromImage": "node:22", "startCmd": "node server.js"})
	clock.Advance(time.Second)
	if got, _ := served(t, emu, "py:default"); got.BuildID != first.buildID {
		t.Errorf("served after a failed newer build = %s, want the first (ready) build %s", got.BuildID, first.buildID)
	}

	third := c.create(map[string]any{"name": "py"})
	c.start(third, map[string]any{"fromImage": "python:3.13", "startCmd": "python3 -m http.server"})
	clock.Advance(time.Second)
	if got, _ := served(t, emu, got.TemplateID); got.BuildID != third.buildID || *got.Start.FromImage != "python:3.13" {
		t.Errorf("served by template id after a ready newer build = %+v, want build %s", got, third.buildID)
	}
	if _, status := served(t, emu, "py:other"); status != http.StatusNotFound {
		t.Errorf("served of a tag no build carries = %d, want 404", status)
	}
}
