package e2bemu_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// buildWith builds template name from python:3.12 with steps (and force), and returns its layers.
func buildWith(t *testing.T, c caller, emu *e2bemu.Server, name string, force bool, steps ...map[string]any) []e2bemu.LayerInfo {
	t.Helper()
	b := c.create(map[string]any{"name": name})
	c.start(b, map[string]any{"fromImage": "python:3.12", "force": force, "steps": steps})
	if got := c.status(b); got["status"] != "ready" {
		t.Fatalf("build of %s: %v", name, got)
	}
	info, _ := emu.Template(name)
	return info.Builds[len(info.Builds)-1].Layers
}

// tarGz is a gzipped tar of files, as the SDKs upload a COPY step's files.
func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, content := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(content))
	}
	_ = tw.Close()
	_ = gz.Close()
	return buf.Bytes()
}

func runStep(cmd string) map[string]any { return map[string]any{"type": "RUN", "args": []string{cmd}} }

func cached(layers []e2bemu.LayerInfo) []bool {
	out := make([]bool, len(layers))
	for i, l := range layers {
		out[i] = l.Cached
	}
	return out
}

// TestLayersAreCachedForTheTeam: the layer keys chain (phases/steps/hash.go), so a build of the same
// steps, by any template of the team, takes every layer from the cache, and an edit rebuilds the
// edited step and every one after it; force on a step does the same from that step, force on the
// build from the base (builder.go forceSteps, base/builder.go Layer).
func TestLayersAreCachedForTheTeam(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	a, b, d := runStep("echo a"), runStep("echo b"), runStep("echo d")
	forced := runStep("echo b")
	forced["force"] = true
	for _, tt := range []struct {
		name   string
		force  bool
		steps  []map[string]any
		cached []bool // base, default user, steps
	}{
		{"first", false, []map[string]any{a, b}, []bool{false, false, false, false}},
		{"same steps in another template", false, []map[string]any{a, b}, []bool{true, true, true, true}},
		{"last edited", false, []map[string]any{a, d}, []bool{true, true, true, false}},
		{"first edited", false, []map[string]any{d, b}, []bool{true, true, false, false}},
		{"three steps", false, []map[string]any{a, b, d}, []bool{true, true, true, true, false}},
		{"the same with the middle one forced", false, []map[string]any{a, forced, d}, []bool{true, true, true, false, false}},
		{"the build forced", true, []map[string]any{a, b}, []bool{false, false, false, false}},
	} {
		got := cached(buildWith(t, c, emu, strings.ReplaceAll(tt.name, " ", "-"), tt.force, tt.steps...))
		if fmt.Sprint(got) != fmt.Sprint(tt.cached) {
			t.Errorf("%s: cached = %v, want %v", tt.name, got, tt.cached)
		}
	}
}

// TestLayerKeysAndLogLines: a step's key is HashKeys(parent, type, args joined by spaces, filesHash
// or "<nil>"), and its log line is layerInfo's (phases/phase.go).
func TestLayerKeysAndLogLines(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	step := map[string]any{"type": "ENV", "args": []string{"A", "1 2"}}
	first := buildWith(t, c, emu, "keys", false, step)
	hashKeys := func(base string, keys ...string) string {
		return fmt.Sprintf("%x", sha256.Sum256([]byte(base+";"+strings.Join(keys, ";"))))
	}
	user := first[1]
	if want := hashKeys(user.Hash, "ENV", "A 1 2", "<nil>"); first[2].Hash != want {
		t.Errorf("step key = %s, want %s", first[2].Hash, want)
	}
	if want := hashKeys(first[0].Hash, "DEFAULT USER", "user"); user.Hash != want || user.Text != "DEFAULT USER user" {
		t.Errorf("user layer = %+v, want key %s", user, want)
	}
	b := c.create(map[string]any{"name": "keys"})
	c.start(b, map[string]any{"fromImage": "python:3.12", "steps": []any{step}})
	var lines []string
	entries, _ := c.status(b)["logEntries"].([]any)
	for _, e := range entries {
		entry, _ := e.(map[string]any)
		message, _ := entry["message"].(string)
		lines = append(lines, message)
	}
	for _, want := range []string{`^CACHED \[base\] FROM python:3\.12 \[[0-9a-f]{64}\]$`, `^CACHED \[base\] DEFAULT USER user \[[0-9a-f]{64}\]$`,
		`^CACHED \[builder 1/1\] ENV A 1 2 \[` + first[2].Hash + `\]$`} {
		if !containsMatch(lines, want) {
			t.Errorf("no log line matches %s:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

func containsMatch(lines []string, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// TestStepsRefusedAsTheOrchestratorRefusesThem: commands/*.go refuse malformed steps when the step
// is built: the build fails at that step with the command's words. The type matches in any case.
func TestStepsRefusedAsTheOrchestratorRefusesThem(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	uploaded := strings.Repeat("a", 64) // by another template: layer files are the team's
	req, _ := http.NewRequest(http.MethodPut, emu.URL+e2bemu.UploadPrefix+c.create(map[string]any{"name": "other"}).templateID+"/"+uploaded,
		bytes.NewReader(tarGz(t, map[string]string{"a": "x"})))
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("upload = %v %v", resp, err)
	}
	for _, tt := range []struct {
		step       map[string]any
		step1, msg string
	}{
		{map[string]any{"type": "RUN"}, "2", "RUN requires command argument"},
		{map[string]any{"type": "ENV", "args": []string{}}, "2", "ENV does not support passing no arguments"},
		{map[string]any{"type": "ARG", "args": []string{"A", "1", "B"}}, "2", "ARG requires both a key and value arguments"},
		{map[string]any{"type": "USER"}, "2", "USER requires a username argument"},
		{map[string]any{"type": "WORKDIR"}, "2", "WORKDIR requires a path argument"},
		{map[string]any{"type": "COPY", "args": []string{"a"}}, "2", "COPY requires a local path and a container path argument"},
		{map[string]any{"type": "COPY", "args": []string{"a", "/a"}, "filesHash": ""}, "2", "COPY requires files hash to be set"},
		{map[string]any{"type": "COPY", "args": []string{"a", "/a"}, "filesHash": strings.Repeat("b", 64)}, "2", "failed to open files object from storage: object does not exist"},
		{map[string]any{"type": "HEALTHCHECK", "args": []string{"x"}}, "2", "failed to get command for step HEALTHCHECK: command type HEALTHCHECK is not implemented"},
		{map[string]any{"type": "copy", "args": []string{"a", "/a"}, "filesHash": uploaded}, "", ""},
		{map[string]any{"type": "run", "args": []string{"true"}}, "", ""},
	} {
		b := c.create(map[string]any{"name": "refused"})
		c.start(b, map[string]any{"fromImage": "python:3.12", "steps": []any{runStep("true"), tt.step}})
		got := c.status(b)
		message, step := reasonOf(got)
		if tt.msg == "" && got["status"] != "ready" || tt.msg != "" && (message != tt.msg || step != tt.step1) {
			t.Errorf("%v: %v, want %q at step %s", tt.step, got, tt.msg, tt.step1)
		}
	}
}

// TestRefuseSteps: as an E2B-compatible server without step builds, a start with steps is a 400
// and the build stays waiting; without steps it builds.
func TestRefuseSteps(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey, RefuseSteps: true})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "plain"})
	status, _, body, _ := c.call(http.MethodPost, b.startPath(), map[string]any{"fromImage": "python:3.12", "steps": []any{runStep("true")}})
	if status != http.StatusBadRequest || body["message"] != "steps are not supported" || c.status(b)["status"] != "waiting" {
		t.Errorf("start with steps = %d %v, status %v", status, body, c.status(b)["status"])
	}
	c.start(b, map[string]any{"fromImage": "python:3.12"})
	if got := c.status(b); got["status"] != "ready" {
		t.Errorf("without steps: %v", got)
	}
}

// TestMinFreeDiskRecorded: minFreeDiskMb at registration (SDK 2.51) is accepted and recorded.
func TestMinFreeDiskRecorded(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	c.create(map[string]any{"name": "disk", "minFreeDiskMb": 0})
	if info, _ := emu.Template("disk"); info.Builds[0].MinFreeDiskMB == nil || *info.Builds[0].MinFreeDiskMB != 0 {
		t.Errorf("minFreeDiskMb = %v, want 0 (set, no minimum)", info.Builds[0].MinFreeDiskMB)
	}
}
