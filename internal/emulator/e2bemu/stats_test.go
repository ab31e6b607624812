package e2bemu_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// getStats reads StatsPath without an API key: the benchmark reads it that way.
func getStats(t *testing.T, emu *e2bemu.Server, query string) e2bemu.Stats {
	t.Helper()
	resp, err := http.Get(emu.URL + e2bemu.StatsPath + query)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s%s = %d, want 200", e2bemu.StatsPath, query, resp.StatusCode)
	}
	var st e2bemu.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestStatsCountsRequestsByRouteWithoutRecordingItself(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: 2 * time.Second, Clock: clock.Now})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "stats"})
	c.start(b, fromPython)
	c.status(b) // still building
	clock.Advance(3 * time.Second)
	if got := c.status(b)["status"]; got != "ready" {
		t.Fatalf("status = %v, want ready", got)
	}
	c.call("GET", "/templates/stats", nil)
	c.call("GET", "/templates/aliases/stats", nil)
	c.call("GET", "/templates/"+b.templateID+"/tags", nil)
	c.call("GET", "/no/such/route", nil)

	st := getStats(t, emu, "")
	want := map[string]int{
		"POST /v3/templates": 1,
		"POST /v2/templates/{templateID}/builds/{buildID}":    1,
		"GET /templates/{templateID}/builds/{buildID}/status": 2,
		"GET /templates/{templateID}":                         1,
		"GET /no/such/route":                                  1,
		"GET /templates/aliases/{alias}":                      1,
		"GET /templates/{templateID}/tags":                    1,
	}
	if st.Total != 8 || st.Since != 0 || len(st.Requests) != len(want) {
		t.Fatalf("stats = %+v, want total 8 and %v", st, want)
	}
	for route, n := range want {
		if st.Requests[route] != n {
			t.Errorf("requests[%q] = %d, want %d (all: %v)", route, st.Requests[route], n, st.Requests)
		}
	}
	// Reading the stats is neither recorded nor counted.
	if again := getStats(t, emu, ""); again.Total != 8 || len(emu.Requests()) != 8 {
		t.Errorf("after two stats reads: total %d, recorded %d, want 8", again.Total, len(emu.Requests()))
	}
}

func TestStatsSinceCountsOnlyLaterRequests(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	c.call("GET", "/templates", nil)
	mark := getStats(t, emu, "").Total
	c.call("GET", "/templates", nil)
	c.call("GET", "/templates", nil)
	st := getStats(t, emu, "?since="+itoa(mark))
	if st.Since != 1 || st.Total != 3 || st.Requests["GET /templates"] != 2 || len(st.Requests) != 1 {
		t.Errorf("since %d: %+v, want 2 GET /templates of 3", mark, st)
	}
	if st := getStats(t, emu, "?since=99"); st.Since != 3 || len(st.Requests) != 0 {
		t.Errorf("since past the end: %+v, want nothing counted", st)
	}
	for _, bad := range []string{"?since=-1", "?since=x"} {
		resp, err := http.Get(emu.URL + e2bemu.StatsPath + bad)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s = %d, want 400", bad, resp.StatusCode)
		}
	}
}

func TestStatsBuildTimeline(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: 2 * time.Second, Clock: clock.Now})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "timeline"})
	started := clock.Now()
	c.start(b, fromPython)
	clock.Advance(3 * time.Second) // the poll after the build's duration finds it ready, 1 s late
	c.status(b)

	st := getStats(t, emu, "")
	if len(st.Builds) != 1 || st.BuildDuration != "2s" {
		t.Fatalf("stats = %+v, want one build and build_duration 2s", st)
	}
	got := st.Builds[0]
	if got.Template != "timeline" || got.BuildID != b.buildID || got.Status != "ready" || got.StartedAt == nil ||
		got.ReadyAt == nil || got.ObservedAt == nil {
		t.Fatalf("build = %+v", got)
	}
	if !got.StartedAt.Equal(started) || !got.ReadyAt.Equal(started.Add(2*time.Second)) || !got.ObservedAt.Equal(started.Add(3*time.Second)) {
		t.Errorf("timeline started %v ready %v observed %v, want %v +2s +3s", got.StartedAt, got.ReadyAt, got.ObservedAt, started)
	}

	// A seeded template was ready when it was added, not a build duration later.
	emu.SeedReadyTemplate("seeded")
	seeded := getStats(t, emu, "").Builds[1]
	if seeded.ReadyAt == nil || !seeded.ReadyAt.Equal(*seeded.ObservedAt) {
		t.Errorf("seeded build = %+v, want ready_at = observed_at", seeded)
	}
}

func TestStatsIsGetOnlyAndNeedsNoKey(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	resp, err := http.Post(emu.URL+e2bemu.StatsPath, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || len(emu.Requests()) != 0 {
		t.Errorf("POST stats = %d with %d recorded, want 405 and none", resp.StatusCode, len(emu.Requests()))
	}
}
