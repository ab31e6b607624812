package e2b

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestBuildFromPublicImage runs the whole flow through E2B's spec validator: defaults for sizing
// and commands, the created hook before the build starts, and the build's own logs.
func TestBuildFromPublicImage(t *testing.T) {
	emu := newEmulator(t)
	v := e2bemu.NewContractValidator(t)
	b := newTestBuilder(t, emu, func(c *Config) { c.HTTPClient = v.Client() })

	var hooked []builders.TemplateRef
	obs := builders.Observer{OnCreated: func(ref builders.TemplateRef) {
		hooked = append(hooked, ref)
		if info, ok := emu.Template("py"); !ok || len(emu.BuildStarts()) != 0 {
			t.Errorf("hook ran with template %+v (exists %v) after %d build starts: want it right after creation", info, ok, len(emu.BuildStarts()))
		}
	}}
	result, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: "py", Image: ciImage}, obs)
	if err != nil || result.Status != builders.StatusSuccess || result.TemplateRef.Value != "py" {
		t.Fatalf("Build = %+v, %v", result, err)
	}
	if len(hooked) != 1 || hooked[0] != (builders.TemplateRef{Provider: Name, Value: "py"}) {
		t.Errorf("created hook got %v, want one e2b/py", hooked)
	}

	start := onlyStart(t, emu)
	if got := deref(start.Body.FromImage); got != ciImage || start.Body.FromTemplate != nil || start.Body.FromImageRegistry != nil {
		t.Errorf("source = image %q, template %v, registry %+v; want the public image alone", got, start.Body.FromTemplate, start.Body.FromImageRegistry)
	}
	if deref(start.Body.StartCmd) != DefaultStartCmd || deref(start.Body.ReadyCmd) != DefaultReadyCmd {
		t.Errorf("commands = %q / %q, want the code-interpreter defaults", deref(start.Body.StartCmd), deref(start.Body.ReadyCmd))
	}
	if deref(start.Body.Force) || len(start.Body.Steps) != 0 {
		t.Errorf("force = %v, steps = %v; want no force and no steps", deref(start.Body.Force), start.Body.Steps)
	}
	info, _ := emu.Template("py")
	if info.CPUCount != builders.DefaultSandboxCPUCount || info.MemoryMB != builders.DefaultSandboxMemoryMB || info.BuildStatus != "ready" {
		t.Errorf("template = %+v, want the core's default sizing and a ready build", info)
	}
	for _, want := range []string{"Building template", "is ready"} {
		if countLines(result.Logs, want) < 1 {
			t.Errorf("logs %q lack %q", result.Logs, want)
		}
	}
	if n := countLines(result.Logs, "Building template"); n != 1 {
		t.Errorf("the emulator's first log line appears %d times, want once", n)
	}
	for _, op := range []string{"POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}", "GET /templates/{templateID}/builds/{buildID}/status"} {
		if v.Seen(op) == 0 {
			t.Errorf("%s was not validated", op)
		}
	}
	if usable, err := b.IsUsable(t.Context(), "py"); err != nil || !usable {
		t.Errorf("IsUsable after the build = %v, %v; want true", usable, err)
	}
}

func TestBuildRegistryAuthKinds(t *testing.T) {
	keyJSON := `{"type":"service_account","client_email":"ci@proj.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n"}`
	privateKey := "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n" // as decoded from keyJSON
	keyFile := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(keyFile, []byte(keyJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		auth    builders.RegistryAuth
		want    e2bemu.FromImageRegistry
		secrets []string
	}{
		{"basic", &builders.BasicAuth{Username: "robot", Password: builders.NewSecret("hunter2-password")},
			e2bemu.FromImageRegistry{Type: "registry", Username: "robot", Password: "hunter2-password"}, []string{"hunter2-password"}},
		{"aws", &builders.AWSAuth{AccessKeyID: "AKIAEXAMPLE", SecretAccessKey: builders.NewSecret("aws-secret-key-value"), Region: "eu-west-1"},
			e2bemu.FromImageRegistry{Type: "aws", AWSAccessKeyID: "AKIAEXAMPLE", AWSSecretAccessKey: "aws-secret-key-value", AWSRegion: "eu-west-1"},
			[]string{"aws-secret-key-value"}},
		{"gcp key content", &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(keyJSON)},
			e2bemu.FromImageRegistry{Type: "gcp", ServiceAccountJSON: keyJSON}, []string{privateKey}},
		{"gcp key file", &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(keyFile)},
			e2bemu.FromImageRegistry{Type: "gcp", ServiceAccountJSON: keyJSON}, []string{privateKey}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu := newEmulator(t)
			b := newTestBuilder(t, emu)
			spec := builders.TemplateSpec{TemplateID: "private", Image: "registry.example.com/team/img:1", RegistryAuth: tt.auth, StartCmd: ptr("")}
			result := mustBuild(t, b, spec)
			start := onlyStart(t, emu)
			if start.RegistryType != tt.want.Type || start.Body.FromImageRegistry == nil || *start.Body.FromImageRegistry != tt.want {
				t.Errorf("fromImageRegistry = %+v (%s), want %+v", start.Body.FromImageRegistry, start.RegistryType, tt.want)
			}
			assertNoSecrets(t, strings.Join(result.Logs, "\n"), tt.secrets...)

			// A failure that echoes a credential must not leak it either.
			// (oci.go's access-denied text, echoing the credentials as a registry might)
			emu.FailBuild("private", "access denied to 'registry.example.com/team/img:1': authentication required or insufficient permissions "+
				strings.Join(tt.secrets, " "))
			_, err := b.Build(t.Context(), spec, builders.Observer{})
			if err == nil || builders.StageOf(err, "") != builders.StageImagePull {
				t.Fatalf("failing build error = %v, want IMAGE_PULL", err)
			}
			assertNoSecrets(t, err.Error()+strings.Join(builders.LogsOf(err), "\n"), tt.secrets...)
		})
	}
}

func TestBuildPackagesCommandsAndSizing(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	mustBuild(t, b, builders.TemplateSpec{TemplateID: "ds", Image: "e2bdev/code-interpreter:latest",
		Packages: []string{"numpy", "pandas==2.2.3", "scipy>=1.13", "pywin32; sys_platform == 'win32'"}, StartCmd: ptr("python -m http.server 8000"),
		ReadyCmd: "curl -sf localhost:8000", CPUCount: 4, MemoryMB: 2048, ForceRebuild: true})

	start := onlyStart(t, emu)
	wantSteps := []e2bemu.TemplateStep{{Type: "RUN", Args: []string{`pip install numpy pandas==2.2.3 'scipy>=1.13' 'pywin32; sys_platform == '"'"'win32'"'"''`, "root"}}}
	if !reflect.DeepEqual(start.Body.Steps, wantSteps) {
		t.Errorf("steps = %+v, want %+v", start.Body.Steps, wantSteps)
	}
	if deref(start.Body.StartCmd) != "python -m http.server 8000" || deref(start.Body.ReadyCmd) != "curl -sf localhost:8000" || !deref(start.Body.Force) {
		t.Errorf("start = %q, ready = %q, force = %v", deref(start.Body.StartCmd), deref(start.Body.ReadyCmd), deref(start.Body.Force))
	}
	if info, _ := emu.Template("ds"); info.CPUCount != 4 || info.MemoryMB != 2048 {
		t.Errorf("sizing = %d CPU / %d MB, want 4 / 2048", info.CPUCount, info.MemoryMB)
	}
}

func TestBuildCommandDefaults(t *testing.T) {
	tests := []struct {
		name             string
		spec             builders.TemplateSpec
		wantStart, ready string
	}{
		{"image: code-interpreter defaults", builders.TemplateSpec{Image: ciImage}, DefaultStartCmd, DefaultReadyCmd},
		{"custom start only: E2B's ready default", builders.TemplateSpec{Image: "python:3.12-slim", StartCmd: ptr("python -m http.server")}, "python -m http.server", ""},
		{"custom ready only", builders.TemplateSpec{Image: ciImage, ReadyCmd: "true"}, DefaultStartCmd, "true"},
		{`start_cmd = "": nothing started, E2B's ready default`, builders.TemplateSpec{Image: "python:3.12-slim", StartCmd: ptr("")}, "", ""},
		{`start_cmd = "" with a ready check`, builders.TemplateSpec{Image: "python:3.12-slim", StartCmd: ptr(""), ReadyCmd: "test -f /etc/passwd"}, "", "test -f /etc/passwd"},
		{"base template keeps its own", fromBaseTemplate("", "code-interpreter-v1"), "", ""},
		{"dockerfile CMD", fromDockerfile("", "FROM python:3.12\nCMD [\"python\", \"-m\", \"http.server\"]"), "'python' '-m' 'http.server'", "sleep 20"},
		// The code-interpreter default is the design's for builds from image only: a Dockerfile without
		// CMD starts nothing, as the SDKs' fromDockerfile sends it (a default would fail at finalize).
		{"dockerfile without CMD: nothing started", fromDockerfile("", "FROM python:3.12-slim\nRUN pip install numpy"), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu := newEmulator(t)
			tt.spec.TemplateID = "cmds"
			mustBuild(t, newTestBuilder(t, emu), tt.spec)
			start := onlyStart(t, emu)
			if deref(start.Body.StartCmd) != tt.wantStart || deref(start.Body.ReadyCmd) != tt.ready {
				t.Errorf("start/ready = %q / %q, want %q / %q", deref(start.Body.StartCmd), deref(start.Body.ReadyCmd), tt.wantStart, tt.ready)
			}
		})
	}
}

func TestBuildOtherSources(t *testing.T) {
	t.Run("base_template", func(t *testing.T) {
		emu := newEmulator(t)
		spec := fromBaseTemplate("legacy", "code-interpreter-v1")
		spec.Packages = []string{"numpy"}
		result := mustBuild(t, newTestBuilder(t, emu), spec)
		start := onlyStart(t, emu)
		if deref(start.Body.FromTemplate) != "code-interpreter-v1" || start.Body.FromImage != nil || len(start.Body.Steps) != 1 {
			t.Errorf("start = %+v, want fromTemplate and the pip step", start.Body)
		}
		if countLines(result.Logs, "deprecated") != 0 {
			t.Errorf("logs %q call base_template deprecated: it is E2B's documented fromTemplate", result.Logs)
		}
	})
	t.Run("dockerfile", func(t *testing.T) {
		emu := newEmulator(t)
		dockerfile := "# legacy\nFROM --platform=linux/amd64 e2bdev/code-interpreter:latest AS base\nRUN apt-get update && \\\n    apt-get install -y git\n" +
			"ENV A=1 B=\"two words\"\nARG VERSION\nWORKDIR /app\nEXPOSE 8000\n"
		result := mustBuild(t, newTestBuilder(t, emu), fromDockerfile("legacy", dockerfile))
		start := onlyStart(t, emu)
		want := []e2bemu.TemplateStep{
			{Type: "USER", Args: []string{"root"}}, {Type: "WORKDIR", Args: []string{"/"}},
			{Type: "RUN", Args: []string{"apt-get update && apt-get install -y git"}},
			{Type: "ENV", Args: []string{"A", "1", "B", "two words"}}, {Type: "ENV", Args: []string{"VERSION", ""}},
			{Type: "WORKDIR", Args: []string{"/app"}}, {Type: "USER", Args: []string{"user"}},
		}
		if deref(start.Body.FromImage) != ciImage || !reflect.DeepEqual(start.Body.Steps, want) {
			t.Errorf("start = %s with steps %+v, want the code-interpreter image with %+v", deref(start.Body.FromImage), start.Body.Steps, want)
		}
		for _, line := range []string{builders.DeprecationMessage("dockerfile"), "EXPOSE is not supported"} {
			if countLines(result.Logs, line) != 1 {
				t.Errorf("logs %q lack %q", result.Logs, line)
			}
		}
	})
	t.Run("dockerfile with COPY is rejected before any request", func(t *testing.T) {
		emu := newEmulator(t)
		got := builders.Ensure(t.Context(), newTestBuilder(t, emu), fromDockerfile("legacy", "FROM python\nCOPY . /app"), builders.Observer{})
		if got.Status != builders.StatusFailed || got.Stage != builders.StageValidation || !strings.Contains(got.Detail, "COPY") {
			t.Errorf("Ensure = %+v, want FAILED/VALIDATION naming COPY", got)
		}
		if n := emu.CountRequests("POST", "/"); n != 0 {
			t.Errorf("%d POSTs sent, want none", n)
		}
	})
}

func TestBuildFailure(t *testing.T) {
	tests := []struct {
		reason string
		stage  builders.Stage
	}{
		{"pip install exited with code 1", builders.StageTemplateBuild},
		// E2B's own image-pull texts (orchestrator/pkg/template/build/core/oci/oci.go)
		{"image 'registry.example.com/missing:1' not found: the image or tag does not exist in the registry", builders.StageImagePull},
		{"repository 'registry.example.com/missing' not found: verify the image name is correct", builders.StageImagePull},
	}
	for _, tt := range tests {
		t.Run(string(tt.stage), func(t *testing.T) {
			emu := newEmulator(t)
			emu.FailBuild("py", tt.reason)
			got := builders.Ensure(t.Context(), newTestBuilder(t, emu), builders.TemplateSpec{TemplateID: "py", Image: ciImage, Packages: []string{"nope"}}, builders.Observer{})
			if got.Status != builders.StatusFailed || got.Stage != tt.stage || !strings.Contains(got.Detail, tt.reason) {
				t.Fatalf("Ensure = %s/%s %q, want FAILED/%s with the reason", got.Status, got.Stage, got.Detail, tt.stage)
			}
			if countLines(got.Logs, "Building template") != 1 || countLines(got.Logs, "Build failed: "+tt.reason) != 1 {
				t.Errorf("logs = %q, want the build's lines up to the error", got.Logs)
			}
		})
	}
}

// TestBuildReadsEveryLogPage builds with more log entries than one status answer holds.
func TestBuildReadsEveryLogPage(t *testing.T) {
	emu := newEmulator(t)
	var dockerfile strings.Builder
	dockerfile.WriteString("FROM " + ciImage + "\n")
	for i := range 250 {
		dockerfile.WriteString("RUN echo line-" + strings.Repeat("x", i%3) + "\n")
	}
	emu.DropConnectionsDuringBuild("logs", 2)
	result := mustBuild(t, newTestBuilder(t, emu), fromDockerfile("logs", dockerfile.String()))
	if n := countLines(result.Logs, "RUN echo line-"); n != 250 {
		t.Errorf("%d RUN log lines, want each of the 250 exactly once", n)
	}
	if n := countLines(result.Logs, "Building template"); n != 1 {
		t.Errorf("first log line seen %d times, want once", n)
	}
}

func TestEnsureSkipsAUsableTemplateAndForceRebuilds(t *testing.T) {
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "again", Image: ciImage}
	for i, want := range []builders.TemplateBuildStatus{builders.StatusSuccess, builders.StatusSkipped} {
		if got := builders.Ensure(t.Context(), b, spec, builders.Observer{}); got.Status != want {
			t.Fatalf("Ensure #%d = %+v, want %s", i+1, got, want)
		}
	}
	spec.ForceRebuild = true
	if got := builders.Ensure(t.Context(), b, spec, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("forced Ensure = %+v, want SUCCESS", got)
	}
	starts := emu.BuildStarts()
	if len(starts) != 2 || starts[0].TemplateID != starts[1].TemplateID || starts[0].BuildID == starts[1].BuildID || !deref(starts[1].Body.Force) {
		t.Errorf("starts = %+v, want two builds of one template, the second forced", starts)
	}
}
