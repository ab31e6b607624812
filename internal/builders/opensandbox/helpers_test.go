package opensandbox

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

const testAPIKey = "osb-test-api-key-7f3a"

// harness is a Builder wired to an emulator, with tiny poll and retry delays.
type harness struct {
	b   *Builder
	emu *opensandboxemu.Server
}

func newHarness(t testing.TB, opts opensandboxemu.Options, configure ...func(*Config)) harness {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testAPIKey
	}
	emu := opensandboxemu.NewTestServer(t, opts)
	cfg := Config{BaseURL: emu.LifecycleURL(), APIKey: builders.NewSecret(testAPIKey), PollInterval: time.Millisecond}
	for _, c := range configure {
		c(&cfg)
	}
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b.api.Retry.BaseDelay = time.Millisecond
	return harness{b: b, emu: emu}
}

// createdRefs records the templates a build reports created.
type createdRefs struct {
	mu   sync.Mutex
	refs []builders.TemplateRef
}

func (c *createdRefs) observer() builders.Observer {
	return builders.Observer{OnCreated: func(ref builders.TemplateRef) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.refs = append(c.refs, ref)
	}}
}

func (c *createdRefs) get() []builders.TemplateRef {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]builders.TemplateRef(nil), c.refs...)
}

// assertAllSandboxesDeleted is checked on every path: a build never leaves its sandbox behind.
func (h harness) assertAllSandboxesDeleted(t *testing.T) {
	t.Helper()
	sandboxes := h.emu.Sandboxes()
	for _, sb := range sandboxes {
		if !sb.Deleted {
			t.Errorf("builder sandbox %s (%s) was not deleted", sb.ID, sb.State)
		}
	}
}

func (h harness) onlySandbox(t *testing.T) opensandboxemu.Sandbox {
	t.Helper()
	sandboxes := h.emu.Sandboxes()
	if len(sandboxes) != 1 {
		t.Fatalf("want exactly one builder sandbox, got %d", len(sandboxes))
	}
	return sandboxes[0]
}

func (h harness) liveSnapshots(name string) []opensandboxemu.Snapshot {
	var out []opensandboxemu.Snapshot
	for _, s := range h.emu.Snapshots() {
		if s.Name == name && !s.Deleted {
			out = append(out, s)
		}
	}
	return out
}

func (h harness) count(method, pathSuffix string) int {
	n := 0
	for _, r := range h.emu.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, pathSuffix) {
			n++
		}
	}
	return n
}

// assertNoSecret fails when any of secrets shows up in the result's detail or logs.
func assertNoSecret(t *testing.T, got builders.TemplateBuildResult, secrets ...string) {
	t.Helper()
	text := got.Detail + "\n" + strings.Join(got.Logs, "\n")
	for _, s := range append(secrets, testAPIKey) {
		if strings.Contains(text, s) {
			t.Errorf("secret %q leaked into the result: %s", s, text)
		}
	}
}

func assertFailed(t *testing.T, got builders.TemplateBuildResult, stage builders.Stage, detail string) {
	t.Helper()
	t.Logf("%s: %s", got.Stage, got.Detail)
	if got.Status != builders.StatusFailed || got.Stage != stage || !strings.Contains(got.Detail, detail) {
		t.Fatalf("result = %s/%s %q, want FAILED/%s containing %q", got.Status, got.Stage, got.Detail, stage, detail)
	}
}

func spec(id string) builders.TemplateSpec {
	return builders.TemplateSpec{TemplateID: id, Image: opensandboxCI}
}

const opensandboxCI = "opensandbox/code-interpreter:v1.1.0"

func ptr(s string) *string { return &s }
