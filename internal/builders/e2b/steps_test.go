package e2b

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestSDKStepEncodings: each step is the step E2B's JS SDK 2.51 makes of the same call
// (template/index.ts); internal/conformance checks the same against the SDK itself.
func TestSDKStepEncodings(t *testing.T) {
	user, no := "analyst", false
	for _, tt := range []struct {
		call string
		step builders.BuildStep
		want templateStep
	}{
		{`runCmd("ls", {user: "root"})`, builders.BuildStep{Run: &builders.RunStep{Command: "ls", User: "root"}}, runStep("ls", "root")},
		{`aptInstall(["a", "b"])`, builders.BuildStep{Apt: &builders.AptStep{Packages: []string{"a", "b"}}},
			runStep("apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y a b", "root")},
		{`pipInstall(["x"])`, builders.BuildStep{Pip: &builders.PipStep{Packages: []string{"x"}}}, runStep("pip install x", "root")},
		{`pipInstall(["x"], {g: false})`, builders.BuildStep{Pip: &builders.PipStep{Packages: []string{"x"}, Global: &no}}, runStep("pip install --user x")},
		{`npmInstall(["x"])`, builders.BuildStep{Npm: &builders.NpmStep{Packages: []string{"x"}}}, runStep("npm install x")},
		{`npmInstall(["x"], {g: true})`, builders.BuildStep{Npm: &builders.NpmStep{Packages: []string{"x"}, Global: true}}, runStep("npm install -g x", "root")},
		{`gitClone("u", undefined, {user: "analyst"})`, builders.BuildStep{GitClone: &builders.GitCloneStep{URL: "u", User: user}}, runStep("git clone u", user)},
		{`setEnvs({B: "2", A: "1 2"})`, builders.BuildStep{Env: map[string]string{"B": "2", "A": "1 2"}}, templateStep{Type: "ENV", Args: []string{"A", "1 2", "B", "2"}}},
		{`setWorkdir("w")`, builders.BuildStep{Workdir: ptr("w")}, templateStep{Type: "WORKDIR", Args: []string{"w"}}},
		{`setUser("analyst")`, builders.BuildStep{User: &user}, templateStep{Type: "USER", Args: []string{"analyst"}}},
		{`copy(src, "/d", {user: "u", mode: 0o644})`, builders.BuildStep{File: &builders.FileStep{Destination: "/d", Owner: "u", Mode: "644"}},
			templateStep{Type: "COPY", Args: []string{"", "/d", "u", "0644"}}},
		{`skipCache().runCmd("ls")`, builders.BuildStep{Run: &builders.RunStep{Command: "ls"}, Force: true}, templateStep{Type: "RUN", Args: []string{"ls"}, Force: true}},
	} {
		if got := sdkStep(tt.step); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.call, got, tt.want)
		}
	}
}

// TestFileStepsUploadOnce: a file step's files go up before the build starts, to the link E2B
// gives for their hash; a build of the same files finds them there and sends nothing.
func TestFileStepsUploadOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.py"), []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	emu := newEmulator(t)
	b := newTestBuilder(t, emu)
	spec := builders.TemplateSpec{TemplateID: "files", Image: "python:3.12", StartCmd: ptr(""), ForceRebuild: true,
		Steps: []builders.BuildStep{{File: &builders.FileStep{Source: filepath.Join(dir, "app.py"), Destination: "/app/"}}}}
	first := mustBuild(t, b, spec)
	second := mustBuild(t, b, spec)
	if countLines(first.Logs, "uploaded the files of steps[0] (file /app/)") != 1 || countLines(second.Logs, "files of steps[0] (file /app/) already on E2B") != 1 {
		t.Errorf("first build logs %q\nsecond build logs %q", first.Logs, second.Logs)
	}
	start := emu.BuildStarts()[1].Body.Steps[0]
	if start.Type != "COPY" || deref(start.FilesHash) == "" || start.Args[0] != "app.py" {
		t.Errorf("COPY step = %+v", start)
	}
}

// TestFailureNamesTheStep: E2B numbers the steps it was sent; the error names the configuration's
// step behind the number, packages first.
func TestFailureNamesTheStep(t *testing.T) {
	emu := newEmulator(t)
	spec := builders.TemplateSpec{TemplateID: "named", Image: "python:3.12", StartCmd: ptr(""), Packages: []string{"numpy"},
		Steps: []builders.BuildStep{{Env: map[string]string{"A": "1"}}, {Npm: &builders.NpmStep{Packages: []string{"ts"}}}}}
	_, err := newTestBuilder(t, emu).Build(context.Background(), spec, builders.Observer{})
	if err == nil || !strings.Contains(err.Error(), "step 3, steps[1] (npm ts): failed to run command 'npm install ts': exit status 127") {
		t.Fatalf("error = %v", err)
	}
}

func TestRefusedStepsHint(t *testing.T) {
	plan := buildPlan{stepLabels: []string{"", "packages (pip numpy)", "steps[0] (apt ffmpeg)"}}
	refused := &apihttp.Error{StatusCode: http.StatusBadRequest, Message: "steps are not supported"}
	if got := plan.refusedStepsHint(refused); !strings.Contains(got, "cannot build packages (pip numpy) (the first of 2)") {
		t.Errorf("hint = %q", got)
	}
	for _, other := range []error{&apihttp.Error{StatusCode: http.StatusBadRequest, Message: "build is not in waiting state"},
		&apihttp.Error{StatusCode: http.StatusInternalServerError, Message: "steps"}, errors.New("steps")} {
		if got := plan.refusedStepsHint(other); got != "" {
			t.Errorf("%v: hint %q, want none", other, got)
		}
	}
	if got := (buildPlan{stepLabels: []string{""}}).refusedStepsHint(refused); got != "" {
		t.Errorf("a Dockerfile's steps only: hint %q, want none", got)
	}
}

// TestServerRefusingSteps: against a server that refuses steps, the build fails at its start with
// the server's words and the step it cannot build.
func TestServerRefusingSteps(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testAPIKey, RefuseSteps: true})
	spec := builders.TemplateSpec{TemplateID: "refused", Image: "python:3.12", StartCmd: ptr(""),
		Steps: []builders.BuildStep{{User: ptr("analyst")}}}
	_, err := newTestBuilder(t, emu).Build(context.Background(), spec, builders.Observer{})
	if builders.StageOf(err, "") != builders.StageTemplateBuild || !strings.Contains(err.Error(), "steps are not supported; this server does not build steps, so it cannot build steps[0] (user analyst)") {
		t.Fatalf("error = %v", err)
	}
	if len(emu.BuildStarts()) != 0 {
		t.Error("the refused start was recorded as started")
	}
}
