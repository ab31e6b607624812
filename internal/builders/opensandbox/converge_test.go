package opensandbox

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// gate holds the first request that matches until released, so a test can interleave builds.
type gate struct {
	match    *regexp.Regexp // on "METHOD path"
	reached  chan struct{}
	released chan struct{}
	next     http.RoundTripper
}

func newGate(pattern string) *gate {
	return &gate{match: regexp.MustCompile(pattern), reached: make(chan struct{}), released: make(chan struct{}), next: http.DefaultTransport}
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.match != nil && g.match.MatchString(r.Method+" "+r.URL.Path) {
		g.match = nil // only the first; a build's requests are sequential
		close(g.reached)
		<-g.released
	}
	return g.next.RoundTrip(r)
}

// builderOn is a second Builder on h's emulator, sending through rt.
func (h harness) builderOn(t *testing.T, rt http.RoundTripper) *Builder {
	t.Helper()
	b, err := New(Config{BaseURL: h.emu.LifecycleURL(), APIKey: builders.NewSecret(testAPIKey), PollInterval: time.Millisecond,
		HTTPClient: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	b.api.Retry.BaseDelay = time.Millisecond
	return b
}

type buildOutcome struct {
	result builders.TemplateBuildResult
	err    error
}

func buildAsync(b *Builder) chan buildOutcome {
	done := make(chan buildOutcome, 1)
	go func() {
		result, err := b.Build(context.Background(), spec("py"), builders.Observer{})
		done <- buildOutcome{result, err}
	}()
	return done
}

// Issue 11, problem 3: two builds of one name, interleaved, leave exactly one Ready snapshot, the
// newer build's; neither deletes a snapshot newer than its own, and both succeed.
func TestInterleavedBuildsConvergeOnTheNewestSnapshot(t *testing.T) {
	const snapshotPoll = `^GET /v1/snapshots/snap-`
	for name, opts := range map[string]opensandboxemu.Options{
		"the older build finishes last, its snapshot still Creating when the newer one settles": {CreatingPolls: 2},
		"the older build finishes last, its snapshot Ready and settled away meanwhile":          {CreatingPolls: 1},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, opts)
			gateA := newGate(snapshotPoll) // A waits for its snapshot only once released
			a := buildAsync(h.builderOn(t, gateA))
			<-gateA.reached
			if result, err := h.b.Build(context.Background(), spec("py"), builders.Observer{}); err != nil || result.Status != builders.StatusSuccess {
				t.Fatalf("B: %+v %v", result, err)
			}
			close(gateA.released)
			assertBuilt(t, <-a)
			assertOnlyTheNewest(t, h)
		})
	}
	t.Run("the older build finishes first, the newer snapshot already Ready", func(t *testing.T) {
		h := newHarness(t, opensandboxemu.Options{CreatingPolls: 2})
		gateA := newGate(snapshotPoll)
		a := buildAsync(h.builderOn(t, gateA))
		<-gateA.reached
		gateB := newGate(`^GET /v1/snapshots$`) // B stops at its cleanup, its snapshot Ready
		b := buildAsync(h.builderOn(t, gateB))
		<-gateB.reached
		close(gateA.released)
		assertBuilt(t, <-a)
		close(gateB.released)
		assertBuilt(t, <-b)
		assertOnlyTheNewest(t, h)
	})
}

func assertBuilt(t *testing.T, o buildOutcome) {
	t.Helper()
	if o.err != nil || o.result.Status != builders.StatusSuccess {
		t.Fatalf("build: %+v %v", o.result, o.err)
	}
}

// assertOnlyTheNewest: of the two snapshots made, the newer one alone is left, Ready.
func assertOnlyTheNewest(t *testing.T, h harness) {
	t.Helper()
	all := h.emu.Snapshots()
	if len(all) != 2 {
		t.Fatalf("%d snapshots made, want 2", len(all))
	}
	older, newer := all[0], all[1]
	if newer.Deleted || newer.State != opensandboxemu.SnapshotReady || !older.Deleted {
		t.Errorf("want only the newer snapshot left and Ready: older %s deleted=%v, newer %s %s deleted=%v",
			older.ID, older.Deleted, newer.ID, newer.State, newer.Deleted)
	}
	if id, err := h.b.ResolveSnapshotID(context.Background(), "py"); err != nil || id != newer.ID {
		t.Errorf("ResolveSnapshotID = %q, %v, want %s", id, err, newer.ID)
	}
}
