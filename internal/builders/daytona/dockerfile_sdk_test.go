package daytona

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// TestDockerfileIsTheSDKs: for a spread of specs, the Dockerfile a build sends is byte for byte
// what @daytonaio/sdk's Image writes for the same calls (conformance/daytona-image.mjs replays
// them through the SDK): its quoting, its package sorting, its ENV and ENTRYPOINT forms.
func TestDockerfileIsTheSDKs(t *testing.T) {
	dir, err := filepath.Abs("../../../conformance")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@daytonaio", "sdk")); err != nil {
		t.Skip("conformance/node_modules has no @daytonaio/sdk (run npm ci in conformance/)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	str := func(s string) *string { return &s }
	user := false
	const image = "python@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	specs := []builders.TemplateSpec{
		{Packages: []string{"pandas==2.2.3", "numpy>=2", "Flask[async]", "a b"}},
		{Steps: []builders.BuildStep{
			{Apt: &builders.AptStep{Packages: []string{"ffmpeg", "libgl1"}, NoInstallRecommends: true}},
			{Env: map[string]string{"B": "two words", "A": "it's $HOME!", "C": `back\slash`, "D": `"quoted"`, "E": "plain:1,2", "F": "", "G": "it's \"$HOME\" `id`"}},
			{Workdir: str("/srv/my app")},
			{User: str("app")},
			{Pip: &builders.PipStep{Packages: []string{"requests"}, Global: &user}},
			{Pip: &builders.PipStep{Packages: []string{"uvicorn"}}},
			{Npm: &builders.NpmStep{Packages: []string{"typescript"}, Global: true}},
			{Run: &builders.RunStep{Command: "make install && echo 'done'", User: "root"}},
			{GitClone: &builders.GitCloneStep{URL: "https://github.com/org/app.git", Branch: "main", Depth: 1, Path: "src"}},
		}, StartCmd: str("python -m http.server 8080")},
		{Steps: []builders.BuildStep{{Run: &builders.RunStep{Command: "echo hi"}}}, StartCmd: str("")},
		{Steps: []builders.BuildStep{{User: str("app")}, {File: &builders.FileStep{Content: str("x = 1\n"), Destination: "conf/app.toml"}},
			{File: &builders.FileStep{Content: str("y"), Destination: "/etc/y", Owner: "root"}}}},
	}
	var calls [][]sdkCall
	var want []string
	for _, spec := range specs {
		contexts, err := buildContexts(spec)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, imageCalls(image, spec, contexts))
		want = append(want, dockerfile(image, spec, contexts))
	}
	in, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, "daytona-image.mjs")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node answered %q: %v", out, err)
	}
	for i := range specs {
		if got[i] != want[i] {
			t.Errorf("spec %d: the SDK renders\n%s\nthe builder\n%s", i, got[i], want[i])
		}
	}
}
