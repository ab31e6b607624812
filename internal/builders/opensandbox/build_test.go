package opensandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

func TestBuildSnapshotsAPreparedSandbox(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{PendingPolls: 3, CreatingPolls: 3})
	var created createdRefs
	got := builders.Ensure(context.Background(), h.b, spec("py"), created.observer())

	want := builders.TemplateRef{Provider: Name, Value: "py"}
	if got.Status != builders.StatusSuccess || got.TemplateRef == nil || *got.TemplateRef != want {
		t.Fatalf("Ensure = %+v, want SUCCESS with %+v", got, want)
	}
	if refs := created.get(); len(refs) != 1 || refs[0] != want {
		t.Errorf("Created got %v, want exactly %v", refs, want)
	}
	sb := h.onlySandbox(t)
	if sb.Image != opensandboxCI || sb.Auth != nil || !slices.Equal(sb.Entrypoint, NeutralEntrypoint) {
		t.Errorf("sandbox created with image %q auth %v entrypoint %q", sb.Image, sb.Auth, sb.Entrypoint)
	}
	if sb.ResourceLimits["cpu"] != "1" || sb.ResourceLimits["memory"] != "2Gi" || sb.Timeout == nil || *sb.Timeout < 60 {
		t.Errorf("sandbox limits %v timeout %v", sb.ResourceLimits, sb.Timeout)
	}
	if sb.Metadata["sandboxtf-template"] != "py" || len(sb.Commands) != 1 || !sb.Commands[0].Background ||
		sb.Commands[0].Command != CodeInterpreterEntrypoint[0] {
		t.Errorf("metadata %v, commands %+v (no packages: only the default start command, detached)", sb.Metadata, sb.Commands)
	}
	h.assertAllSandboxesDeleted(t)

	snaps := h.liveSnapshots("py")
	if len(snaps) != 1 || snaps[0].State != opensandboxemu.SnapshotReady || snaps[0].SandboxID != sb.ID {
		t.Fatalf("snapshots named py: %+v", snaps)
	}
	if id, err := h.b.ResolveSnapshotID(context.Background(), "py"); err != nil || id != snaps[0].ID {
		t.Errorf("ResolveSnapshotID = %q, %v; want %s", id, err, snaps[0].ID)
	}
	// A snapshot records no inputs, so an existing one is rebuilt, not adopted (an import adopts it):
	// one Ready snapshot of the name is left, the new one.
	if again := builders.Ensure(context.Background(), h.b, spec("py"), builders.Observer{}); again.Status != builders.StatusSuccess ||
		len(again.Warnings) != 1 || again.BuildID == snaps[0].ID {
		t.Errorf("second Ensure = %s %q (build %s), want SUCCESS from a new snapshot, with a warning", again.Status, again.Warnings, again.BuildID)
	}
	if ready := h.liveSnapshots("py"); len(ready) != 1 || ready[0].ID == snaps[0].ID {
		t.Errorf("snapshots named py after the rebuild: %+v, want only the new one", ready)
	}
	assertNoSecret(t, got)
}

func TestBuildInstallsPackagesBeforeTheSnapshot(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{Programs: func(cmd string) (opensandboxemu.CommandResult, bool) {
		return opensandboxemu.CommandResult{Stdout: []string{"Successfully installed numpy-2.0.0"}, Stderr: []string{"a pip notice"}}, strings.Contains(cmd, "pip install")
	}})
	s := spec("ds")
	s.Packages = []string{"numpy==2.0.0", "pandas>=2", "pywin32; sys_platform == 'win32'"}
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	snaps := h.liveSnapshots("ds")
	if len(snaps) != 1 || len(snaps[0].Commands) != 2 || !snaps[0].Commands[1].Background {
		t.Fatalf("the snapshot must capture the install, then the start command: %+v", snaps)
	}
	cmd := snaps[0].Commands[0]
	wantCmd := `python3 -m pip install --no-input --disable-pip-version-check 'numpy==2.0.0' 'pandas>=2' 'pywin32; sys_platform == '\''win32'\'''`
	if cmd.Command != wantCmd || cmd.Envs["PIP_BREAK_SYSTEM_PACKAGES"] != "1" {
		t.Errorf("command = %q envs %v, want %q", cmd.Command, cmd.Envs, wantCmd)
	}
	logs := strings.Join(got.Logs, "\n")
	for _, want := range []string{"$ " + wantCmd, "Successfully installed numpy-2.0.0", "stderr: a pip notice", "deleted"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	for _, r := range h.emu.Requests() {
		if strings.HasPrefix(r.Path, "/execd/") && r.Header.Get("OPEN-SANDBOX-API-KEY") != "" {
			t.Errorf("the lifecycle API key must not go to execd (%s %s)", r.Method, r.Path)
		}
	}
	h.assertAllSandboxesDeleted(t)
}

func TestBuildRunsStartCmdThroughAShell(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("web")
	s.Image = "python:3.12"
	s.StartCmd = ptr(`python -m http.server "8000"`)
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	sb := h.onlySandbox(t)
	if !slices.Equal(sb.Entrypoint, NeutralEntrypoint) || len(sb.Commands) != 1 || !sb.Commands[0].Background ||
		sb.Commands[0].Command != `sh -c 'python -m http.server "8000"'` {
		t.Errorf("entrypoint %q, commands %+v; want the neutral entrypoint, then the start command through sh -c, detached", sb.Entrypoint, sb.Commands)
	}
}

func TestBuildPassesBasicAuthThroughExactly(t *testing.T) {
	const image, user, password = "registry.example.com/team/ci:1", "robot$ci", "pa:ss w0rd\"€"
	h := newHarness(t, opensandboxemu.Options{PrivateImages: map[string]opensandboxemu.ImageAuth{image: {Username: user, Password: password}}})
	auth := &builders.BasicAuth{Username: user, Password: builders.NewSecret(password)}
	s := spec("private")
	s.Image, s.RegistryAuth, s.StartCmd = image, auth, ptr("")
	h.b.registryLogin = func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
		t.Error("basic auth must not go through the registry login exchange")
		return "", builders.Secret{}, nil
	}
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	if sb := h.onlySandbox(t); sb.Auth == nil || *sb.Auth != (opensandboxemu.ImageAuth{Username: user, Password: password}) {
		t.Errorf("image auth reaching the server = %+v", sb.Auth)
	}
	assertNoSecret(t, got, password)
}

func TestBuildExchangesCloudCredentials(t *testing.T) {
	awsAuth := &builders.AWSAuth{AccessKeyID: "AKIAEXAMPLE", SecretAccessKey: builders.NewSecret("aws-secret-key"), Region: "us-east-1"}
	gcpAuth := &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(`{"type":"service_account","client_email":"a@b.iam.gserviceaccount.com","private_key":"k"}`)}
	for _, tt := range []struct {
		name, image, user, token string
		auth                     builders.RegistryAuth
	}{
		{"aws", "123456789012.dkr.ecr.us-east-1.amazonaws.com/ci:1", "AWS", "ecr-token-xyz", awsAuth},
		{"gcp", "us-docker.pkg.dev/proj/repo/ci:1", "oauth2accesstoken", "ya29.token", gcpAuth},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, opensandboxemu.Options{PrivateImages: map[string]opensandboxemu.ImageAuth{tt.image: {Username: tt.user, Password: tt.token}}})
			var loginImage string
			var loginAuth builders.RegistryAuth
			h.b.registryLogin = func(_ context.Context, image string, auth builders.RegistryAuth) (string, builders.Secret, error) {
				loginImage, loginAuth = image, auth
				return tt.user, builders.NewSecret(tt.token), nil
			}
			s := spec("cloud")
			s.Image, s.RegistryAuth, s.StartCmd = tt.image, tt.auth, ptr("")
			got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
			if got.Status != builders.StatusSuccess {
				t.Fatalf("Ensure = %+v", got)
			}
			if loginImage != tt.image || loginAuth != tt.auth {
				t.Errorf("login called with %q %p, want %q %p", loginImage, loginAuth, tt.image, tt.auth)
			}
			if sb := h.onlySandbox(t); sb.Auth == nil || *sb.Auth != (opensandboxemu.ImageAuth{Username: tt.user, Password: tt.token}) {
				t.Errorf("image auth reaching the server = %+v", sb.Auth)
			}
			assertNoSecret(t, got, tt.token, "aws-secret-key")
		})
	}
}

func TestBuildRegistryAuthFailures(t *testing.T) {
	awsAuth := &builders.AWSAuth{AccessKeyID: "AKIAEXAMPLE", SecretAccessKey: builders.NewSecret("aws-secret-key"), Region: "us-east-1"}
	for _, tt := range []struct {
		name   string
		login  builders.RegistryLoginFunc
		detail string
	}{
		{"no exchange configured", nil, "no aws credential exchange is configured"},
		{"exchange fails", func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
			return "", builders.Secret{}, context.DeadlineExceeded
		}, "login for"},
		{"exchange returns nothing", func(context.Context, string, builders.RegistryAuth) (string, builders.Secret, error) {
			return "", builders.Secret{}, nil
		}, "returned no credentials"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, opensandboxemu.Options{})
			h.b.registryLogin = tt.login
			s := spec("cloud")
			s.Image, s.RegistryAuth = "123456789012.dkr.ecr.us-east-1.amazonaws.com/ci:1", awsAuth
			got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
			stage := builders.StageRegistryAuth
			if tt.name == "exchange fails" {
				stage = builders.StageTimeout // a deadline inside the exchange is what the user acts on
			}
			assertFailed(t, got, stage, tt.detail)
			if n := len(h.emu.Sandboxes()); n != 0 {
				t.Errorf("%d sandboxes created despite the failed login", n)
			}
			assertNoSecret(t, got, "aws-secret-key")
		})
	}
}

func TestBuildImagePullFailures(t *testing.T) {
	const private, wrongPassword = "registry.example.com/private:1", "wrong-password-123"
	wrong := &builders.BasicAuth{Username: "robot", Password: builders.NewSecret(wrongPassword)}
	for _, tt := range []struct {
		name          string
		opts          opensandboxemu.Options
		image         string
		auth          builders.RegistryAuth
		wantSandboxes int
	}{
		{"a pending sandbox fails with a pull reason", opensandboxemu.Options{UnpullableImages: []string{"ghcr.io/nope/missing:1"}, PendingPolls: 1}, "ghcr.io/nope/missing:1", nil, 1},
		{"wrong credentials", opensandboxemu.Options{PrivateImages: map[string]opensandboxemu.ImageAuth{private: {Username: "robot", Password: "right"}}}, private, wrong, 0},
		{"docker runtime answers the create with 500", opensandboxemu.Options{UnpullableImages: []string{"ghcr.io/nope/missing:1"}}, "ghcr.io/nope/missing:1", nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.opts)
			s := spec("pull")
			s.Image, s.RegistryAuth = tt.image, tt.auth
			got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
			assertFailed(t, got, builders.StageImagePull, "pull")
			if n := len(h.emu.Sandboxes()); n != tt.wantSandboxes {
				t.Errorf("%d sandboxes, want %d", n, tt.wantSandboxes)
			}
			if tt.wantSandboxes == 0 && h.count("POST", "/sandboxes") != 1 {
				t.Error("a failed create must not be retried: it could make a second sandbox")
			}
			h.assertAllSandboxesDeleted(t)
			if len(h.emu.Snapshots()) != 0 {
				t.Error("no snapshot may be taken of a sandbox that never ran")
			}
			assertNoSecret(t, got, wrongPassword)
		})
	}
}

func TestBuildSnapshotFailure(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{FailSnapshots: true, CreatingPolls: 2})
	var created createdRefs
	got := builders.Ensure(context.Background(), h.b, spec("snap"), created.observer())
	assertFailed(t, got, builders.StageSnapshot, "snapshot_runtime_failed")
	if len(created.get()) != 1 {
		t.Errorf("Created must be reported once the snapshot exists, got %v", created.get())
	}
	h.assertAllSandboxesDeleted(t)
	if snaps := h.liveSnapshots("snap"); len(snaps) != 0 {
		t.Errorf("the failed snapshot should have been removed: %+v", snaps)
	}
	if usable, err := h.b.IsUsable(context.Background(), "snap"); usable || err != nil {
		t.Errorf("IsUsable = %v, %v after a failed snapshot", usable, err)
	}
}

func TestBuildPackageInstallFailure(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{Programs: func(string) (opensandboxemu.CommandResult, bool) {
		return opensandboxemu.CommandResult{ExitCode: 1, Stderr: []string{"ERROR: No matching distribution found for nosuchpkg"}}, true
	}})
	s := spec("pkgs")
	s.Packages = []string{"nosuchpkg"}
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	assertFailed(t, got, builders.StageTemplateBuild, "exit code 1")
	if !slices.Contains(got.Logs, "stderr: ERROR: No matching distribution found for nosuchpkg") {
		t.Errorf("logs must carry pip's error: %q", got.Logs)
	}
	if len(h.emu.Snapshots()) != 0 {
		t.Error("a failed install must not be snapshotted")
	}
	h.assertAllSandboxesDeleted(t)
}

// TestBuildOnAnImageWithoutPython: execd runs the install with bash, which finds no python3 in
// ubuntu: the build fails at TEMPLATE_BUILD naming the command, its exit code 127 and bash's words.
func TestBuildOnAnImageWithoutPython(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := builders.TemplateSpec{TemplateID: "bare", Image: "ubuntu:24.04", StartCmd: ptr(""), Packages: []string{"numpy"}}
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	assertFailed(t, got, builders.StageTemplateBuild, "`python3 -m pip install --no-input --disable-pip-version-check 'numpy'` failed with exit code 127")
	for _, want := range []string{"the image has no python3", "its last output:\n  stderr: bash: line 1: python3: command not found"} {
		if !strings.Contains(got.Detail, want) {
			t.Errorf("detail %q does not say %q", got.Detail, want)
		}
	}
	if len(h.emu.Snapshots()) != 0 {
		t.Error("a failed install must not be snapshotted")
	}
	h.assertAllSandboxesDeleted(t)
}

func TestBuildCancelledMidWait(t *testing.T) {
	for _, tt := range []struct {
		name      string
		opts      opensandboxemu.Options
		cancelOn  string // path fragment of the poll to cancel at
		snapshots int
	}{
		{"waiting for Running", opensandboxemu.Options{PendingPolls: -1}, "/sandboxes/sbx-", 0},
		{"waiting for the snapshot", opensandboxemu.Options{CreatingPolls: -1}, "/snapshots/snap-", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			polls := 0
			tt.opts.OnRequest = func(r *http.Request) {
				if r.Method == http.MethodGet && strings.Contains(r.URL.Path, tt.cancelOn) {
					if polls++; polls == 3 { // the build is well inside its wait loop
						cancel()
					}
				}
			}
			h := newHarness(t, tt.opts)
			var created createdRefs
			got := builders.Ensure(ctx, h.b, spec("cancel"), created.observer())
			assertFailed(t, got, builders.StageCancelled, "canceled")
			h.assertAllSandboxesDeleted(t)
			if n := len(h.liveSnapshots("cancel")); n != tt.snapshots {
				t.Errorf("%d snapshots left, want %d (a Creating one stays for Delete)", n, tt.snapshots)
			}
			if len(created.get()) != tt.snapshots {
				t.Errorf("Created calls = %v", created.get())
			}
		})
	}
}

func TestBuildRejectedAPIKeyIsAPIAuth(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{}, func(c *Config) { c.APIKey = builders.NewSecret("wrong-key-42") })
	got := builders.Ensure(context.Background(), h.b, spec("py"), builders.Observer{})
	assertFailed(t, got, builders.StageAPIAuth, "INVALID_API_KEY")
	if !strings.Contains(got.Detail, "OpenSandbox rejected the API key (401): check OPEN_SANDBOX_API_KEY or provider opensandbox.api_key") {
		t.Errorf("the error should name the setting to fix: %s", got.Detail)
	}
	if _, err := h.b.IsUsable(context.Background(), "py"); builders.StageOf(err, "") != builders.StageAPIAuth {
		t.Errorf("IsUsable error %v, want API_AUTH", err)
	}
	assertNoSecret(t, got, "wrong-key-42")
}

func TestBuildLogsIgnoredFields(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("warn")
	minFree := 2048
	s.MemoryMB, s.MinFreeDiskMB = 4096, &minFree
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	logs := strings.Join(got.Logs, "\n")
	for _, want := range []string{"min_free_disk_mb is ignored by opensandbox", "memory_mb is ignored by opensandbox"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	if strings.Contains(logs, "cpu_count") {
		t.Errorf("the defaulted cpu_count was not set by the user and must not warn:\n%s", logs)
	}
}

func TestForceRebuildReplacesOlderSnapshots(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{})
	oldReady := h.emu.AddSnapshot("py", opensandboxemu.SnapshotReady)
	oldFailed := h.emu.AddSnapshot("py", opensandboxemu.SnapshotFailed)
	other := h.emu.AddSnapshot("other", opensandboxemu.SnapshotReady)
	s := spec("py")
	s.ForceRebuild = true
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	snaps := h.liveSnapshots("py")
	if len(snaps) != 1 || snaps[0].ID == oldReady || snaps[0].ID == oldFailed {
		t.Fatalf("after a forced rebuild only the new snapshot may carry the name: %+v", snaps)
	}
	if len(h.liveSnapshots("other")) != 1 {
		t.Errorf("snapshot %s of another template was touched", other)
	}
	if id, _ := h.b.ResolveSnapshotID(context.Background(), "py"); id != snaps[0].ID {
		t.Errorf("ResolveSnapshotID = %s, want the new %s", id, snaps[0].ID)
	}
}

func TestImageAuthIsOnlyRevealedInTheRequestBody(t *testing.T) {
	req := createSandboxRequest{Image: imageSpec{URI: "x", Auth: &imageAuth{Username: "u", Password: builders.NewSecret("hunter2")}}}
	body, err := json.Marshal(req)
	if err != nil || !strings.Contains(string(body), `"auth":{"username":"u","password":"hunter2"}`) {
		t.Fatalf("body = %s, %v", body, err)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		if printed := fmt.Sprintf(format, req); strings.Contains(printed, "hunter2") {
			t.Errorf("%s printed the password: %s", format, printed)
		}
	}
}

// Every request, to the lifecycle API and to execd, names the provider and its version.
func TestRequestsCarryTheUserAgent(t *testing.T) {
	h := newHarness(t, opensandboxemu.Options{}, func(c *Config) { c.UserAgent = "terraform-provider-sandbox/9.9.9" })
	s := spec("ua")
	s.Packages = []string{"numpy"}
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("Ensure = %+v", got)
	}
	execd := 0
	for _, r := range h.emu.Requests() {
		if ua := r.Header.Get("User-Agent"); ua != "terraform-provider-sandbox/9.9.9" {
			t.Errorf("%s %s: User-Agent %q", r.Method, r.Path, ua)
		}
		if strings.HasPrefix(r.Path, "/execd/") {
			execd++
		}
	}
	if execd == 0 {
		t.Error("no execd request was made: the test proves nothing for execd")
	}
}
