package e2bemu_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestSeedFailedTemplate: a template whose only build failed lists the default tag but resolves
// no ready build; after a ready build, a newer failed one leaves the older ready build usable.
func TestSeedFailedTemplate(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	emu.SeedFailedTemplate("broken", "exit status 1")
	info, _ := emu.Template("broken")
	if info.BuildStatus != "error" || len(info.Tags) != 1 || len(info.ReadyTags) != 0 || info.Builds[0].Reason != "exit status 1" {
		t.Errorf("seeded failed template = %+v", info)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/broken:default", nil); status != http.StatusNotFound {
		t.Errorf("alias:default of a failed template = %d, want 404", status)
	}
	emu.SeedReadyTemplate("kept")
	if status := control(t, emu, "seed/failed-template", `{"name": "kept", "reason": "boom"}`); status != http.StatusNoContent {
		t.Fatalf("seed/failed-template = %d", status)
	}
	kept, _ := emu.Template("kept")
	if kept.BuildStatus != "error" || len(kept.ReadyTags) != 1 || len(kept.Builds) != 2 {
		t.Errorf("ready then failed = %+v, want the newest build failed and default still ready", kept)
	}
	if status, _, _, _ := c.call("GET", "/templates/aliases/kept:default", nil); status != http.StatusOK {
		t.Errorf("alias:default after a failed rebuild = %d, want 200 (the older ready build)", status)
	}
}

// TestFaultControls: random faults and dropped polls are reachable over the control path too.
func TestFaultControls(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	if status := control(t, emu, "faults", `{"rate": 1, "status": [502], "latency": "1ms"}`); status != http.StatusNoContent {
		t.Fatalf("faults = %d", status)
	}
	if status, _, _, _ := c.call("GET", "/templates", nil); status != http.StatusBadGateway {
		t.Errorf("with rate 1 = %d, want 502", status)
	}
	control(t, emu, "faults", `{}`)
	b := c.create(map[string]any{"name": "py"})
	c.start(b, fromPython)
	if status := control(t, emu, "drop-connections", `{"template": "py", "count": 1}`); status != http.StatusNoContent {
		t.Fatalf("drop-connections = %d", status)
	}
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	req, _ := http.NewRequest("GET", emu.URL+b.statusPath(), nil)
	req.Header.Set("X-API-Key", apiKey)
	if resp, err := fresh.Do(req); err == nil {
		_ = resp.Body.Close()
		t.Errorf("a dropped poll answered %d", resp.StatusCode)
	}
	for _, bad := range []string{`{"rate": 2}`, `{"latency": "soon"}`} {
		if status := control(t, emu, "faults", bad); status != http.StatusBadRequest {
			t.Errorf("faults %s = %d, want 400", bad, status)
		}
	}
}

// TestAliasCheckObservesTheReadyBuild: a client that waits with alias:default instead of status
// polls is the one whose delay Stats measures.
func TestAliasCheckObservesTheReadyBuild(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: 2 * time.Second, Clock: clock.Now})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	c.start(b, fromPython)
	clock.Advance(5 * time.Second)
	if status, _, _, _ := c.call("GET", "/templates/aliases/py:default", nil); status != http.StatusOK {
		t.Fatalf("alias:default = %d", status)
	}
	got := emu.Stats(0).Builds[0]
	if got.ReadyAt == nil || got.ObservedAt == nil || got.ObservedAt.Sub(*got.ReadyAt) != 3*time.Second {
		t.Errorf("timeline = %+v, want observed 3 s after ready", got)
	}
}
