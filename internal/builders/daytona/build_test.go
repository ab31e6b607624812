package daytona

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

// TestBuildFromImage: an image-only template is a snapshot pulled from the image pinned by digest
// (Daytona refuses :latest and bare names), named after the template and its inputs, which is the
// template_ref; built again from the same inputs, it is adopted, with the same ref.
func TestBuildFromImage(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "py", Image: "python:3.12", StartCmd: str("sleep infinity"), CPUCount: 2, MemoryMB: 2048}
	got := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	want := "py:inputs-" + spec.Fingerprint()
	if got.Status != builders.StatusSuccess || got.TemplateRef == nil || got.TemplateRef.Value != want || got.BuildID != want {
		t.Fatalf("Ensure = %+v, want SUCCESS with ref %s", got, want)
	}
	s, found := snapshotNamed(t, emu, want)
	if !found || s.State != stateActive || s.ImageName != pinnedPython {
		t.Fatalf("snapshot = %+v (found %v), want active, from %s", s, found, pinnedPython)
	}
	if usable, err := b.IsUsable(t.Context(), "py"); err != nil || !usable {
		t.Errorf("IsUsable = %v, %v", usable, err)
	}
	if served, err := b.Serving(t.Context(), "py", false, ""); err != nil || served != want {
		t.Errorf("Serving = %q, %v; want %s", served, err, want)
	}
	if names, err := b.ListTemplates(t.Context()); err != nil || !slices.Equal(names, []string{"py"}) {
		t.Errorf("ListTemplates = %v, %v", names, err)
	}
	again := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if again.Status != builders.StatusSkipped || again.TemplateRef.Value != want || again.BuildID != want {
		t.Errorf("Ensure again = %+v, want SKIPPED with ref %s", again, want)
	}
	if n := count(builderRequests(emu), "POST /snapshots"); n != 1 {
		t.Errorf("%d snapshots created, want 1", n)
	}
}

// TestBuildFromSteps: packages and steps are built from the Dockerfile the SDK's Image writes
// for them, on the pinned image; the build runs them (a failing one would fail it).
func TestBuildFromSteps(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	app := t.TempDir()
	if err := os.WriteFile(filepath.Join(app, "main.py"), []byte("print('hi')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := builders.TemplateSpec{TemplateID: "steps", Image: "python:3.12", Packages: []string{"requests"},
		Steps: []builders.BuildStep{{Env: map[string]string{"GREETING": "hello world"}}, {Workdir: str("/srv")},
			{Run: &builders.RunStep{Command: "echo \"$GREETING\" > greeting.txt"}},
			{File: &builders.FileStep{Content: str("debug = true\n"), Destination: "app.toml"}},
			{File: &builders.FileStep{Source: app, Destination: "/opt/app"}}}}
	got := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	contexts, err := buildContexts(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := snapshotNamed(t, emu, got.TemplateRef.Value)
	if s.BuildInfo == nil || s.BuildInfo.DockerfileContent != dockerfile(pinnedPython, spec, contexts) || s.ImageName != "" ||
		len(s.BuildInfo.ContextHashes) != 2 {
		t.Fatalf("snapshot = %+v, want built from\n%s", s, dockerfile(pinnedPython, spec, contexts))
	}
	if !slices.ContainsFunc(got.Logs, func(l string) bool { return strings.Contains(l, "RUN echo") }) {
		t.Errorf("logs %q lack the build's own log", got.Logs)
	}
	sb, err := b.StartSandbox(t.Context(), builders.SandboxRequest{TemplateID: "steps", Build: got.TemplateRef.Value})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sb.Close(context.WithoutCancel(t.Context())) }()
	out, err := sb.Run(t.Context(), "cat /srv/greeting.txt /srv/app.toml /opt/app/main.py")
	if want := "hello world\ndebug = true\nprint('hi')\n"; err != nil || out.ExitCode != 0 || string(out.Output) != want {
		t.Errorf("the steps' files = %q (exit %d, %v), want %q", out.Output, out.ExitCode, err, want)
	}
	if !strings.HasPrefix(s.BuildInfo.DockerfileContent, "FROM "+pinnedPython+"\nRUN python -m pip install requests\n") {
		t.Errorf("Dockerfile = %q", s.BuildInfo.DockerfileContent)
	}
}

// TestRebuildLeavesNoGap: a rebuild from other inputs creates a new snapshot and removes the old
// one only once the new one is active: at every request the builder sends, the template has an
// active snapshot; at the end only the new one is left.
func TestRebuildLeavesNoGap(t *testing.T) {
	var emu *daytonaemu.Server
	var probeMu sync.Mutex
	var gaps []string
	var tt *testing.T
	emu = newEmulator(t, daytonaemu.Options{PollsPerState: 2, OnRequest: func(r *http.Request) {
		if r.Header.Get(probeHeader) != "" || tt == nil {
			return
		}
		probeMu.Lock()
		defer probeMu.Unlock()
		if !slices.ContainsFunc(emulated(tt, emu), func(s emulatedSnapshot) bool {
			return !s.Removed && s.State == stateActive && strings.HasPrefix(s.Name, "gap:")
		}) {
			gaps = append(gaps, r.Method+" "+r.URL.Path)
		}
	}})
	b := newBuilder(t, emu)
	old := builders.TemplateSpec{TemplateID: "gap", Image: "python:3.12", Packages: []string{"requests"}}
	first := builders.Ensure(t.Context(), b, old, builders.Observer{})
	if first.Status != builders.StatusSuccess {
		t.Fatalf("first build = %+v", first)
	}
	tt = t // from here on, every request the builder sends is checked
	next := old
	next.Packages = []string{"requests", "flask"}
	second := builders.Rebuild(t.Context(), b, next, builders.Observer{})
	tt = nil
	if second.Status != builders.StatusSuccess || second.TemplateRef.Value == first.TemplateRef.Value {
		t.Fatalf("rebuild = %+v", second)
	}
	if len(gaps) > 0 {
		t.Errorf("the template had no active snapshot when the builder sent %v", gaps)
	}
	var left []string
	for _, s := range snapshots(t, emu) {
		if s.State != stateRemoving {
			left = append(left, s.Name)
		}
	}
	if !slices.Equal(left, []string{second.TemplateRef.Value}) {
		t.Errorf("snapshots left = %v, want only %s", left, second.TemplateRef.Value)
	}
}

// TestExistingNameIsAdopted: a snapshot that already carries the build's name (an interrupted
// apply, a lost state) is adopted, never answered with Daytona's 409: active, it is the build;
// being built, it is waited for; failed, it is removed and built again under the next name.
func TestExistingNameIsAdopted(t *testing.T) {
	spec := builders.TemplateSpec{TemplateID: "adopt", Image: "python:3.12", Packages: []string{"requests"}}
	name := snapshotName("adopt", spec.Fingerprint(), 0)
	create := func(t *testing.T, emu *daytonaemu.Server, dockerfile string) {
		body := createSnapshot{Name: name, BuildInfo: &buildInfo{DockerfileContent: dockerfile}, CPU: 2, Memory: 1}
		if status := api(t, emu, http.MethodPost, "/snapshots", body, nil); status != http.StatusOK {
			t.Fatalf("creating %s: HTTP %d", name, status)
		}
	}
	t.Run("being built", func(t *testing.T) {
		emu := newEmulator(t, daytonaemu.Options{PollsPerState: 3})
		create(t, emu, dockerfile(pinnedPython, spec, nil))
		got := builders.Ensure(t.Context(), newBuilder(t, emu), spec, builders.Observer{})
		if got.Status != builders.StatusSuccess || got.TemplateRef.Value != name {
			t.Fatalf("Ensure = %+v", got)
		}
		if n := count(builderRequests(emu), "POST /snapshots"); n != 0 {
			t.Errorf("the builder created %d snapshots, want it to adopt %s", n, name)
		}
	})
	t.Run("created meanwhile", func(t *testing.T) { // between the builder's list and its create: a 409, adopted
		var emu *daytonaemu.Server
		var raced bool
		emu = newEmulator(t, daytonaemu.Options{OnRequest: func(r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == daytonaemu.APIPath+"/snapshots" && r.Header.Get(probeHeader) == "" && !raced {
				raced = true
				create(t, emu, dockerfile(pinnedPython, spec, nil))
			}
		}})
		got := builders.Ensure(t.Context(), newBuilder(t, emu), spec, builders.Observer{})
		if !raced || got.Status != builders.StatusSuccess || got.TemplateRef.Value != name {
			t.Fatalf("Ensure = %+v (raced: %v), want the concurrent snapshot adopted", got, raced)
		}
	})
	t.Run("failed", func(t *testing.T) {
		emu := newEmulator(t, daytonaemu.Options{})
		create(t, emu, "FROM "+pinnedPython+"\nRUN exit 7\n")
		for s, _ := snapshotNamed(t, emu, name); !s.failed(); s, _ = snapshotNamed(t, emu, name) {
			if s.State == stateActive {
				t.Fatal("the planted build did not fail")
			}
		}
		got := builders.Ensure(t.Context(), newBuilder(t, emu), spec, builders.Observer{})
		want := snapshotName("adopt", spec.Fingerprint(), 1)
		if got.Status != builders.StatusSuccess || got.TemplateRef.Value != want {
			t.Fatalf("Ensure = %+v, want SUCCESS as %s", got, want)
		}
		if s, found := snapshotNamed(t, emu, name); found && s.State != stateRemoving {
			t.Errorf("the failed snapshot is still there: %+v", s)
		}
	})
}

// TestFailedBuild: a step that fails fails the build at TEMPLATE_BUILD with the server's
// errorReason and the build log; an image that cannot be pulled fails at IMAGE_PULL.
func TestFailedBuild(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "broken", Image: "python:3.12",
		Steps: []builders.BuildStep{{Run: &builders.RunStep{Command: "echo about to fail && exit 3"}}}}
	got := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if got.Status != builders.StatusFailed || got.Stage != builders.StageTemplateBuild {
		t.Fatalf("Ensure = %+v, want FAILED at TEMPLATE_BUILD", got)
	}
	// A failed build job leaves the snapshot in error (job-state-handler.service.ts
	// handleBuildSnapshotJobCompletion), the older runner path in build_failed: either is a failure.
	s, _ := snapshotNamed(t, emu, "broken:inputs-"+spec.Fingerprint())
	if !s.failed() || s.reason() == "" || !strings.Contains(got.Detail, s.State+": "+s.reason()) {
		t.Errorf("detail %q does not carry the errorReason %q", got.Detail, s.reason())
	}
	if !slices.ContainsFunc(got.Logs, func(l string) bool { return strings.Contains(l, "about to fail") }) {
		t.Errorf("logs %q lack the build's output", got.Logs)
	}

	private := newEmulator(t, daytonaemu.Options{PrivateImages: map[string]daytonaemu.Credential{"ghcr.io/org/app": {Username: "u", Password: "p"}}})
	pull := builders.Ensure(t.Context(), newBuilder(t, private), builders.TemplateSpec{TemplateID: "private", Image: "ghcr.io/org/app:1"}, builders.Observer{})
	if pull.Status != builders.StatusFailed || pull.Stage != builders.StageImagePull || !strings.Contains(pull.Detail, "denied") {
		t.Errorf("pull without credentials = %+v, want FAILED at IMAGE_PULL with the daemon's reason", pull)
	}
}

// TestRegistryEntryLastsTheBuild: registry_auth becomes the organization's registry entry for the
// build, which pulls with it, and is removed when the build ends: no credential stays behind.
func TestRegistryEntryLastsTheBuild(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{PrivateImages: map[string]daytonaemu.Credential{"ghcr.io/org/app": {Username: "u", Password: "Regi5try-Pa55-xyzzy"}}})
	b := newBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "private", Image: "ghcr.io/org/app:1",
		RegistryAuth: &builders.BasicAuth{Username: "u", Password: builders.NewSecret("Regi5try-Pa55-xyzzy")}}
	got := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	var entries []registry
	api(t, emu, http.MethodGet, "/docker-registry", nil, &entries)
	if len(entries) != 0 {
		t.Errorf("registry entries left after the build: %+v", entries)
	}
	reqs := builderRequests(emu)
	if count(reqs, "POST /docker-registry") != 1 || count(reqs, "POST /snapshots") != 1 {
		t.Errorf("requests = %v, want one entry written before the one snapshot", reqs)
	}
	buildertest.NoPartOfSecret(t, "build logs", strings.Join(got.Logs, "\n"), "Regi5try-Pa55-xyzzy")

	// Refused: the entry's failure is REGISTRY_AUTH, and says nothing of the password.
	emu.InjectFault(daytonaemu.Fault{Method: http.MethodPost, PathPrefix: "/docker-registry", Status: http.StatusBadRequest, Count: 1})
	spec.ForceRebuild = true
	refused := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if refused.Status != builders.StatusFailed || refused.Stage != builders.StageRegistryAuth {
		t.Errorf("Ensure with the entry refused = %+v, want FAILED at REGISTRY_AUTH", refused)
	}
	buildertest.NoPartOfSecret(t, "detail", refused.Detail+strings.Join(refused.Logs, "\n"), "Regi5try-Pa55-xyzzy")
}

// TestInactiveIsActivatedNotRebuilt: an inactive snapshot is not usable but dormant, and is
// activated, after Daytona's cooldown, without a build; Ensure on it (a lost state) activates it
// too instead of building.
func TestInactiveIsActivatedNotRebuilt(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	spec := builders.TemplateSpec{TemplateID: "sleepy", Image: "python:3.12"}
	built := builders.Ensure(t.Context(), newBuilder(t, emu), spec, builders.Observer{})
	if built.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", built)
	}
	s, _ := snapshotNamed(t, emu, built.TemplateRef.Value)
	if err := emu.Expire(s.ID); err != nil { // 14 days unused: Daytona's cron deactivates it
		t.Fatal(err)
	}

	t.Run("cooldown respected", func(t *testing.T) {
		b := newBuilder(t, emu)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		obs := builders.Observer{OnProgress: func(line string) {
			if strings.Contains(line, "refuses to activate it") {
				cancel()
			}
		}}
		err := b.Activate(ctx, built.TemplateRef.Value, obs)
		if builders.StageOf(err, "") != builders.StageCancelled {
			t.Errorf("Activate during the cooldown = %v, want it to wait (and be cancelled)", err)
		}
		if n := count(builderRequests(emu), "POST /snapshots/"+s.ID+"/activate"); n != 0 {
			t.Errorf("%d activations asked for during the cooldown", n)
		}
	})

	emu.AdvanceClock(daytonaemuCooldown)
	b := newBuilder(t, emu, func(c *Config) { c.Now = func() time.Time { return time.Now().Add(daytonaemuCooldown) } })
	if usable, err := b.IsUsable(t.Context(), "sleepy"); err != nil || usable {
		t.Errorf("IsUsable of an inactive snapshot = %v, %v; want false", usable, err)
	}
	dormant, err := b.Dormant(t.Context(), "sleepy")
	if err != nil || dormant != built.TemplateRef.Value {
		t.Fatalf("Dormant = %q, %v; want %s", dormant, err, built.TemplateRef.Value)
	}
	if err := b.Activate(t.Context(), dormant, builders.Observer{}); err != nil {
		t.Fatal(err)
	}
	if usable, err := b.IsUsable(t.Context(), "sleepy"); err != nil || !usable {
		t.Errorf("IsUsable after activation = %v, %v", usable, err)
	}
	if n := count(builderRequests(emu), "POST /snapshots"); n != 1 {
		t.Errorf("%d snapshots created, want only the first build", n)
	}

	// A lost state: Ensure finds the inputs' snapshot inactive and activates it.
	if err := emu.Expire(s.ID); err != nil {
		t.Fatal(err)
	}
	emu.AdvanceClock(daytonaemuCooldown)
	b = newBuilder(t, emu, func(c *Config) { c.Now = func() time.Time { return time.Now().Add(2 * daytonaemuCooldown) } })
	again := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if again.Status != builders.StatusSuccess || again.TemplateRef.Value != built.TemplateRef.Value {
		t.Fatalf("Ensure on an inactive snapshot = %+v", again)
	}
	if n := count(builderRequests(emu), "POST /snapshots"); n != 1 {
		t.Errorf("%d snapshots created, want the inactive one activated instead", n)
	}
}

// daytonaemuCooldown is past the server's activation cooldown.
const daytonaemuCooldown = ActivationCooldown + time.Minute

// TestDelete: destroy removes every snapshot of the template; a second destroy finds nothing.
func TestDelete(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "gone", Image: "python:3.12"}, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if err := b.Delete(t.Context(), "gone"); err != nil {
		t.Fatal(err)
	}
	if usable, err := b.IsUsable(t.Context(), "gone"); err != nil || usable {
		t.Errorf("IsUsable after Delete = %v, %v", usable, err)
	}
	if err := b.Delete(t.Context(), "gone"); err != nil {
		t.Errorf("second Delete = %v", err)
	}
	if names, err := b.ListTemplates(t.Context()); err != nil || len(names) != 0 {
		t.Errorf("ListTemplates = %v, %v", names, err)
	}
}

// TestCheckSandbox: a check starts a sandbox from the snapshot, runs commands through the toolbox
// with their exit code and output, and deletes it.
func TestCheckSandbox(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "checked", Image: "python:3.12"}, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	sb, err := b.StartSandbox(t.Context(), builders.SandboxRequest{TemplateID: "checked", Build: got.TemplateRef.Value,
		Env: map[string]string{"WHO": "check"}, Lifetime: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	out, err := sb.Run(t.Context(), "echo hello $WHO; exit 3")
	if err != nil || out.ExitCode != 3 || string(out.Output) != "hello check\n" {
		t.Errorf("Run = %+v (%q), %v", out, out.Output, err)
	}
	if err := sb.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := sb.Close(t.Context()); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

// TestForceRebuildTakesTheNextName: force_rebuild builds again from the same inputs under the
// next free name (a snapshot name cannot be reused), and removes the one it supersedes.
func TestForceRebuildTakesTheNextName(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "forced", Image: "python:3.12"}
	first := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	spec.ForceRebuild = true
	second := builders.Rebuild(t.Context(), b, spec, builders.Observer{})
	want := snapshotName("forced", spec.Fingerprint(), 1)
	if first.Status != builders.StatusSuccess || second.Status != builders.StatusSuccess || second.TemplateRef.Value != want {
		t.Fatalf("builds = %+v, %+v; want the second named %s", first, second, want)
	}
	if s, found := snapshotNamed(t, emu, first.TemplateRef.Value); found && s.State != stateRemoving {
		t.Errorf("the superseded snapshot is %s", s.State)
	}
}

// TestAdoptionRemovesWhatItSupersedes: a build that could not remove the snapshot it superseded
// (here the delete failed; on a retry, the timed-out rebuild that finished meanwhile never got to
// it) leaves two active snapshots; the retry that adopts the new one, building nothing, removes the
// old one (builders.Superseder), so no snapshot is left that no state records.
func TestAdoptionRemovesWhatItSupersedes(t *testing.T) {
	emu := newEmulator(t, daytonaemu.Options{})
	b := newBuilder(t, emu)
	old := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: "adopt", Image: "python:3.12"}, builders.Observer{})
	emu.InjectFault(daytonaemu.Fault{Method: http.MethodDelete, PathPrefix: "/snapshots", Status: http.StatusServiceUnavailable, Count: 10})
	spec := builders.TemplateSpec{TemplateID: "adopt", Image: "python:3.12", Packages: []string{"numpy"}}
	built := builders.Ensure(t.Context(), b, spec, builders.Observer{})
	if s, _ := snapshotNamed(t, emu, old.TemplateRef.Value); built.Status != builders.StatusSuccess || s.State != stateActive {
		t.Fatalf("set-up: build %+v, the old snapshot %s; want a build that left the old one active", built, s.State)
	}
	for range 10 { // use up the faults the build left, on a snapshot that does not exist
		if api(t, emu, http.MethodDelete, "/snapshots/00000000-0000-4000-8000-000000000000", nil, nil) != http.StatusServiceUnavailable {
			break
		}
	}
	adopted := builders.Rebuild(t.Context(), b, spec, builders.Observer{})
	if adopted.Status != builders.StatusSkipped || adopted.BuildID != built.BuildID {
		t.Fatalf("retry = %+v, want the build %s adopted", adopted, built.BuildID)
	}
	if s, found := snapshotNamed(t, emu, old.TemplateRef.Value); found && s.State != stateRemoving {
		t.Errorf("the superseded snapshot %s is %s after the adoption, want it removed (logs %q)", old.TemplateRef.Value, s.State, adopted.Logs)
	}
}
