package conformance

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
)

// TestE2BStepsAsTheSDKSendsThem: the oracle for steps. The provider's E2B builder builds a set of
// templates that use every step kind, file steps (a folder with a nested file, an executable and a
// symbolic link; a single file; inline content), a forced step, a typed ready check and a base
// template against the standalone emulator. Then E2B's own SDK serialises the same templates,
// written independently in conformance/e2b-steps.test.mjs, with Template.toJSON (which computes the
// files hashes and sends nothing), and each must equal the build start body the emulator received
// from the provider, filesHash included. The SDK also judges the emulator's layer cache (an SDK
// build after an edit of the last step logs the earlier layers CACHED) and its step checks (the
// orchestrator's words for steps it refuses).
func TestE2BStepsAsTheSDKSendsThem(t *testing.T) {
	const key = "e2b_0123456789abcdef0123456789abcdef01234567"
	settings := startEmulator(t, []string{"E2B_API_URL", "E2B_API_KEY"}, "-api-key", key)
	files := stepFiles(t)

	b, err := e2b.New(e2b.Config{APIURL: settings["E2B_API_URL"], APIKey: builders.NewSecret(key), PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	content := "c.ServerApp.open_browser = False\n"
	str := func(s string) *string { return &s }
	global := false
	for _, spec := range []builders.TemplateSpec{
		{TemplateID: "conf-steps-commands", Image: "e2bdev/code-interpreter:latest", Packages: []string{"numpy", "pandas==2.2.3"},
			StartCmd: str("python -m http.server 8000"), ReadyCheck: &builders.ReadyCheck{Port: 8000},
			Steps: []builders.BuildStep{
				{Apt: &builders.AptStep{Packages: []string{"ffmpeg", "libgl1"}, NoInstallRecommends: true}},
				{Npm: &builders.NpmStep{Packages: []string{"typescript@5"}, Global: true}},
				{Npm: &builders.NpmStep{Packages: []string{"left-pad"}}},
				{Pip: &builders.PipStep{Packages: []string{"requests"}, Global: &global}},
				{Run: &builders.RunStep{Command: "jupyter kernelspec list", User: "root"}},
				{GitClone: &builders.GitCloneStep{URL: "https://github.com/e2b-dev/e2b-cookbook", Branch: "main", Depth: 1, Path: "/home/user/cookbook"}},
				{Env: map[string]string{"MPLBACKEND": "Agg", "GREETING": "two words"}},
				{User: str("analyst")},
				{Workdir: str("/home/analyst/work")},
				{Run: &builders.RunStep{Command: "echo ready"}, Force: true},
			}},
		{TemplateID: "conf-steps-files", Image: "python:3.12-slim", StartCmd: str("python -m http.server 8888"),
			ReadyCheck: &builders.ReadyCheck{URL: "http://localhost:8888/", StatusCode: 200},
			Steps: []builders.BuildStep{
				{File: &builders.FileStep{Source: filepath.Join(files, "app"), Destination: "/opt/app", Owner: "root", Mode: "755"}},
				{File: &builders.FileStep{Source: filepath.Join(files, "settings.json"), Destination: "/etc/app/"}},
				{File: &builders.FileStep{Content: &content, Destination: "/root/.jupyter/jupyter_config.py", Mode: "0600"}},
			}},
		{TemplateID: "conf-steps-base", BaseTemplate: "code-interpreter-v1", StartCmd: str("sudo systemctl start jupyter"),
			ReadyCheck: &builders.ReadyCheck{Timeout: "2500ms"}, Packages: []string{"polars"}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		result, err := b.Build(ctx, spec, builders.Observer{})
		cancel()
		if err != nil {
			t.Fatalf("building %s: %v\n%s", spec.TemplateID, err, builders.LogsOf(err))
		}
		t.Logf("%s: %s", spec.TemplateID, result.Status)
	}
	runNodeTest(t, "e2b-steps.test.mjs", "E2B_API_URL="+settings["E2B_API_URL"], "E2B_API_KEY="+key, "STEP_FILES="+files,
		"E2B_DOMAIN=emulator.invalid", "E2B_ACCESS_TOKEN=", "HOME="+t.TempDir())
}

// stepFiles writes the files the file steps place: a folder with a nested file, an executable and
// a symbolic link, and a single file. The SDK reads the same ones.
func stepFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []struct {
		path, content string
		mode          os.FileMode
	}{
		{"app/main.py", "print('hello')\n", 0o644},
		{"app/lib/util.py", "ANSWER = 42\n", 0o644},
		{"app/run.sh", "#!/bin/sh\nexec python3 /opt/app/main.py\n", 0o755},
		{"settings.json", `{"theme": "dark"}`, 0o640},
	} {
		path := filepath.Join(dir, f.path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(f.content), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, f.mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	if err := os.Symlink("main.py", filepath.Join(dir, "app", "current")); err != nil {
		t.Fatal(err)
	}
	return dir
}
