package opensandbox

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// deadPID is the id of a process of this host that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestBuildDeletesBuildersOfDeadRuns: a build of py deletes the builder sandbox of py that a dead
// process of this host left, and nothing else: not a live process's (a concurrent build), not
// another host's (whose liveness is unknown here), not another template's.
func TestBuildDeletesBuildersOfDeadRuns(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, opensandboxemu.Options{})
	dead := deadPID(t)
	elsewhere := BuilderMetadata("py", "b-elsewhere", dead)
	elsewhere[metaHost] = "0123456789abcdef"
	left := map[string]map[string]string{
		"dead":      BuilderMetadata("py", "b-dead", dead),
		"live":      BuilderMetadata("py", "b-live", os.Getpid()),
		"elsewhere": elsewhere,
		"other":     BuilderMetadata("other", "b-other", dead),
	}
	ids, seeded := map[string]string{}, map[string]bool{}
	for name, md := range left {
		sb, err := h.b.api.createSandbox(ctx, createSandboxRequest{Image: imageSpec{URI: opensandboxCI},
			Entrypoint: CodeInterpreterEntrypoint, ResourceLimits: DefaultResourceLimits, Metadata: md, Timeout: 3600})
		if err != nil {
			t.Fatal(err)
		}
		ids[name], seeded[sb.ID] = sb.ID, true
	}

	got := builders.Ensure(ctx, h.b, spec("py"), builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %s %s", got.Status, got.Detail)
	}
	for _, sb := range h.emu.Sandboxes() {
		if want := sb.ID == ids["dead"] || !seeded[sb.ID]; sb.Deleted != want { // the build's own builder goes too
			t.Errorf("sandbox %s (%v) deleted = %v, want %v", sb.ID, sb.Metadata, sb.Deleted, want)
		}
	}
	if !slices.ContainsFunc(got.Logs, func(l string) bool { return strings.Contains(l, "deleted builder sandbox "+ids["dead"]) }) {
		t.Errorf("logs do not say the dead run's builder was deleted: %q", got.Logs)
	}
}

func TestBuilderMetadataIsLabels(t *testing.T) {
	md := BuilderMetadata(strings.Repeat("t", 64), newBuildID(), os.Getpid())
	if _, ok := md[metaTemplate]; ok {
		t.Errorf("a template id over 63 characters is no label value: %v", md)
	}
	for key, value := range md {
		if len(value) == 0 || len(value) > 63 || strings.ContainsAny(value, " :/") {
			t.Errorf("%s = %q is no label value", key, value)
		}
	}
	if processGone(os.Getpid()) || !processGone(deadPID(t)) {
		t.Error("processGone must tell this process from one that exited")
	}
}

// TestAnUnreapedProcessIsGone: a provider killed with its CLI stays a zombie until its new parent
// waits for it; signal 0 still finds it, yet its builder sandbox is a dead run's.
func TestAnUnreapedProcessIsGone(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here: zombies cannot be told apart")
	}
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }() // reaped only after the check
	for deadline := time.Now().Add(10 * time.Second); !zombie(cmd.Process.Pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the child never became a zombie")
		}
	}
	if !processGone(cmd.Process.Pid) {
		t.Error("an exited, unreaped process counts as alive: a killed run's builder sandbox would never be swept")
	}
}
