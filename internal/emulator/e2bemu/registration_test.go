package e2bemu_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestBuildConcurrencyLimit: registration answers 429 once the team has limit builds in flight
// (waiting ones count), with no Retry-After; the slot frees when one of them ends.
func TestBuildConcurrencyLimit(t *testing.T) {
	clock := newFakeClock()
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey, BuildConcurrency: 2, BuildDuration: time.Minute, Clock: clock.Now})
	c := newCaller(t, emu)
	a := c.create(map[string]any{"name": "a"})
	c.create(map[string]any{"name": "b"}) // registered, never started: still counts
	status, header, body, _ := c.call("POST", "/v3/templates", map[string]any{"name": "c"})
	msg, _ := body["message"].(string)
	if status != http.StatusTooManyRequests || !strings.Contains(msg, "maximum number of concurrent template builds (2)") || header.Get("Retry-After") != "" {
		t.Fatalf("third registration = %d %v (Retry-After %q), want 429 naming the limit, no Retry-After", status, body, header.Get("Retry-After"))
	}
	// A new build of a with the same tag replaces a's unstarted build: it does not count against the limit.
	c.create(map[string]any{"name": "a"})
	c.start(c.create(map[string]any{"name": "a"}), fromPython)
	if status, _, _, _ := c.call("POST", "/v3/templates", map[string]any{"name": "c"}); status != http.StatusTooManyRequests {
		t.Errorf("while a builds and b waits = %d, want 429", status)
	}
	clock.Advance(time.Minute) // a's build ends: its slot frees
	c.create(map[string]any{"name": "c"})
	if got := c.status(a)["status"]; got != "error" {
		t.Errorf("the superseded build = %v, want error", got)
	}
	emu.SetBuildConcurrency(0)
	c.create(map[string]any{"name": "d"})
}

// TestRegistrationSupersedesUnstartedBuilds: a newer registration with a shared tag fails the older
// unstarted build with E2B's reason; a build with other tags is left alone.
func TestRegistrationSupersedesUnstartedBuilds(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	old := c.create(map[string]any{"name": "py"})
	other := c.create(map[string]any{"name": "py:v2"})
	c.create(map[string]any{"name": "py"})
	info := c.status(old)
	reason, _ := info["reason"].(map[string]any)
	if info["status"] != "error" || reason["message"] != "The build was canceled because it was superseded by a newer one." {
		t.Errorf("the older build = %v, want error, superseded", info)
	}
	if got := c.status(other)["status"]; got != "waiting" {
		t.Errorf("a build with another tag = %v, want still waiting", got)
	}
	if status, _, body, _ := c.call("POST", old.startPath(), fromPython); status != http.StatusBadRequest || body["message"] != "build is not in waiting state" {
		t.Errorf("starting the superseded build = %d %v, want 400 not in waiting state", status, body)
	}
}

// TestStartCancelsRunningBuilds: starting a build cancels the template's other running builds that
// share a tag with it (get_concurrent_template_builds.sql), even when the start itself is refused.
// TestStartCancelsOnlyBuildsSharingATag covers builds under other tags.
func TestStartCancelsRunningBuilds(t *testing.T) {
	clock := newFakeClock()
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, BuildDuration: time.Minute, Clock: clock.Now})
	c := newCaller(t, emu)
	release := func(version string) map[string]any {
		return map[string]any{"name": "py:" + version, "tags": []string{"release"}}
	}
	first := c.create(release("v1"))
	elsewhere := c.create(map[string]any{"name": "other", "tags": []string{"release"}})
	c.start(first, fromPython)
	c.start(elsewhere, fromPython)
	second := c.create(release("v2"))
	c.start(second, fromPython)
	info := c.status(first)
	reason, _ := info["reason"].(map[string]any)
	if info["status"] != "error" || reason["message"] != "build was cancelled" {
		t.Errorf("the running build = %v, want error, cancelled", info)
	}
	if got := c.status(elsewhere)["status"]; got != "building" {
		t.Errorf("another template's build = %v, want still building", got)
	}
	third := c.create(release("v3"))
	c.start(third, fromPython)
	if status, _, _, _ := c.call("POST", third.startPath(), fromPython); status != http.StatusBadRequest {
		t.Errorf("a second start = %d, want 400", status)
	}
	if got := c.status(second)["status"]; got != "error" {
		t.Errorf("v2 after v3 started = %v, want error (cancelled)", got)
	}
}

// TestSizingRules: team/limits.go's rules answer 400 at registration, in its order and words; the
// defaults are 2 and 1024; a team's maxima are those of E2B's default tier unless set otherwise.
func TestSizingRules(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	for _, tt := range []struct {
		cpu, mem int
		want     string
	}{
		{3, 1024, "CPU count must be 1 or an even number"},
		{34, 1024, "CPU count must be at most 32"},
		{2, 1025, "Memory must be divisible by 2"},
		{10, 1024, "CPU count can't be higher than 8 (if you need to increase this limit, please contact support)"},
		{2, 8194, "Memory can't be higher than 8192 MiB (if you need to increase this limit, please contact support)"},
	} {
		status, _, body, _ := c.call("POST", "/v3/templates", map[string]any{"name": "x", "cpuCount": tt.cpu, "memoryMB": tt.mem})
		if status != http.StatusBadRequest || body["message"] != tt.want {
			t.Errorf("cpu %d memory %d = %d %v, want 400 %q", tt.cpu, tt.mem, status, body, tt.want)
		}
	}
	for _, ok := range []map[string]any{{"name": "one", "cpuCount": 1, "memoryMB": 128}, {"name": "tier", "cpuCount": 8, "memoryMB": 8192}} {
		c.create(ok)
	}
	c.create(map[string]any{"name": "defaults"})
	if info, _ := emu.Template("defaults"); info.CPUCount != 2 || info.MemoryMB != 1024 {
		t.Errorf("defaults = %d CPU %d MB, want 2 and 1024", info.CPUCount, info.MemoryMB)
	}

	emu.SetTeamLimits(e2bemu.TeamLimits{MaxCPU: 32, MaxMemoryMB: 65536})
	c.create(map[string]any{"name": "max", "cpuCount": 32, "memoryMB": 65536})
	if status := control(t, emu, "team-limits", `{"maxCpu": 4, "maxMemoryMb": 2048}`); status != http.StatusNoContent {
		t.Fatalf("team-limits = %d, want 204", status)
	}
	if status, _, body, _ := c.call("POST", "/v3/templates", map[string]any{"name": "x", "cpuCount": 6}); status != http.StatusBadRequest ||
		body["message"] != "CPU count can't be higher than 4 (if you need to increase this limit, please contact support)" {
		t.Errorf("6 CPUs above a team maximum of 4 = %d %v, want 400", status, body)
	}
	c.create(map[string]any{"name": "within", "cpuCount": 4, "memoryMB": 2048})
}

// TestNamesAndNamespaces: names are lower-cased into the team's namespace; another namespace is a
// 400; a tag that is a UUID is refused; an alias equal to a template id is a 409.
func TestNamesAndNamespaces(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, TeamSlug: "acme"})
	c := newCaller(t, emu)
	status, _, out, _ := c.call("POST", "/v3/templates", map[string]any{"name": " Py:V1 ", "tags": []string{"stable", "v1"}})
	names, _ := out["names"].([]any)
	tags, _ := out["tags"].([]any)
	if status != http.StatusAccepted || len(names) != 1 || names[0] != "acme/py" || len(tags) != 2 {
		t.Fatalf("create = %d %v, want acme/py with tags stable and v1", status, out)
	}
	if again := c.create(map[string]any{"name": "acme/py"}); again.templateID != out["templateID"] {
		t.Errorf("acme/py = %s, want the same template %v", again.templateID, out["templateID"])
	}
	for _, bad := range []map[string]any{
		{"name": "other-team/py"},
		{"name": "py", "tags": []string{"0b7c3b30-6a2e-4cd0-9f2e-7d2c5bb1a0c4"}},
		{"name": "py!"},
	} {
		if status, _, body, _ := c.call("POST", "/v3/templates", bad); status != http.StatusBadRequest {
			t.Errorf("create %v = %d %v, want 400", bad, status, body)
		}
	}
	id, _ := out["templateID"].(string)
	status, _, body, _ := c.call("POST", "/v3/templates", map[string]any{"name": id})
	if status != http.StatusConflict || body["message"] != "Alias '"+id+"' is already used" {
		t.Errorf("create named after a template id = %d %v, want 409", status, body)
	}
}

// TestPromotedNameIsFreeForTheTeam: another team's promoted template answers 403 to this team's
// alias check, yet the team can create its own under that name; its alias then resolves to it.
func TestPromotedNameIsFreeForTheTeam(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	emu.SeedForeignTemplate("code-interpreter", true)
	c := newCaller(t, emu)
	if status, _, _, _ := c.call("GET", "/templates/aliases/code-interpreter", nil); status != http.StatusForbidden {
		t.Errorf("a promoted template's alias = %d, want 403", status)
	}
	if status, _, _, _ := c.call("DELETE", "/templates/code-interpreter", nil); status != http.StatusForbidden {
		t.Errorf("deleting another team's template = %d, want 403", status)
	}
	own := c.create(map[string]any{"name": "code-interpreter"})
	c.start(own, fromPython)
	c.status(own)
	status, _, alias, _ := c.call("GET", "/templates/aliases/code-interpreter:default", nil)
	if status != http.StatusOK || alias["templateID"] != own.templateID {
		t.Errorf("alias after creating our own = %d %v, want ours (%s)", status, alias, own.templateID)
	}
}
