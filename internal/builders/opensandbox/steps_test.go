package opensandbox

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// call renders one recorded execd call for comparison: "cmd[cwd uid env] text", "mkdir path
// owner:group mode", "upload path owner:group mode content".
func call(c opensandboxemu.ExecdCall) string {
	switch {
	case c.Command != nil:
		uid := "-"
		if c.Command.UID != nil {
			uid = itoa(*c.Command.UID) + ":" + itoa(*c.Command.GID)
		}
		var env []string
		for _, k := range []string{"HOME", "MPLBACKEND", "PIP_BREAK_SYSTEM_PACKAGES"} {
			if v, ok := c.Command.Envs[k]; ok {
				env = append(env, k+"="+v)
			}
		}
		kind := "cmd"
		if c.Command.Background {
			kind = "start"
		}
		return kind + "[" + c.Command.Cwd + " " + uid + " " + strings.Join(env, ",") + "] " + c.Command.Command
	case c.MakeDir != nil:
		return "mkdir " + c.MakeDir.Path + " " + c.MakeDir.Owner + ":" + c.MakeDir.Group + " " + itoa(uint32(c.MakeDir.Mode))
	}
	return "upload " + c.Upload.Path + " " + c.Upload.Owner + ":" + c.Upload.Group + " " + itoa(uint32(c.Upload.Mode)) + " " + string(c.Upload.Content)
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

// TestBuildRunsEveryStepThroughExecd: each step kind reaches execd in order, with the working
// directory, environment and user the steps before it set, as E2B's orchestrator carries them;
// files go through execd's upload with E2B's copy semantics; then the start command starts,
// detached, as root with the steps' environment, and the ready command runs last.
func TestBuildRunsEveryStepThroughExecd(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "app", "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"app/main.py": "print(1)\n", "app/lib/util.py": "x = 1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The image is ubuntu:24.04's, whose user ubuntu has uid 1000: useradd gives analyst 1001.
	workdir, user, config := "/home/analyst/work", "analyst", "c = 1\n"
	h := newHarness(t, opensandboxemu.Options{})
	s := spec("steps")
	s.Packages = []string{"numpy"}
	s.Steps = []builders.BuildStep{
		{Apt: &builders.AptStep{Packages: []string{"ffmpeg"}, NoInstallRecommends: true}},
		{Env: map[string]string{"MPLBACKEND": "Agg"}},
		{User: &user},
		{Workdir: &workdir},
		{Pip: &builders.PipStep{Packages: []string{"pandas==2.2.3"}, Global: new(false)}},
		{Npm: &builders.NpmStep{Packages: []string{"typescript"}, Global: true}},
		{GitClone: &builders.GitCloneStep{URL: "https://github.com/e2b-dev/e2b-cookbook", Branch: "main", Depth: 1, Path: "cookbook"}},
		{File: &builders.FileStep{Source: filepath.Join(dir, "app"), Destination: "app", Mode: "0755"}},
		{File: &builders.FileStep{Content: &config, Destination: "/etc/jupyter/config.py", Owner: "root"}},
		{Run: &builders.RunStep{Command: "python3 app/main.py", User: "root"}},
	}
	s.ReadyCheck = &builders.ReadyCheck{File: "/etc/jupyter/config.py"} // a file a step placed: the check runs after the steps
	got := builders.Ensure(context.Background(), h.b, s, builders.Observer{})
	if got.Status != builders.StatusSuccess {
		t.Fatalf("build = %s at %s: %s\n%s", got.Status, got.Stage, got.Detail, strings.Join(got.Logs, "\n"))
	}
	var calls []string
	for _, c := range h.onlySandbox(t).Calls {
		calls = append(calls, call(c))
	}
	want := []string{
		"cmd[ - PIP_BREAK_SYSTEM_PACKAGES=1] python3 -m pip install --no-input --disable-pip-version-check 'numpy'",
		"cmd[ - ] apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y --no-install-recommends ffmpeg",
		"cmd[ - MPLBACKEND=Agg] getent passwd analyst",
		"cmd[ - MPLBACKEND=Agg] useradd --create-home --shell /bin/bash analyst",
		"cmd[ - MPLBACKEND=Agg] getent passwd analyst",
		"mkdir /home/analyst/work analyst:analyst 755",
		"cmd[/home/analyst/work 1001:1001 HOME=/home/analyst,MPLBACKEND=Agg,PIP_BREAK_SYSTEM_PACKAGES=1] " +
			"python3 -m pip install --no-input --disable-pip-version-check --user 'pandas==2.2.3'",
		"cmd[/home/analyst/work - MPLBACKEND=Agg] npm install -g typescript",
		"cmd[/home/analyst/work 1001:1001 HOME=/home/analyst,MPLBACKEND=Agg] git clone https://github.com/e2b-dev/e2b-cookbook --branch main --single-branch --depth 1 cookbook",
		"mkdir /home/analyst/work/app analyst:analyst 755",
		"mkdir /home/analyst/work/app/lib analyst:analyst 755",
		"upload /home/analyst/work/app/lib/util.py analyst:analyst 755 x = 1\n",
		"upload /home/analyst/work/app/main.py analyst:analyst 755 print(1)\n",
		"upload /etc/jupyter/config.py root:root 644 c = 1\n",
		"cmd[/home/analyst/work - MPLBACKEND=Agg] python3 app/main.py",
		"start[ - MPLBACKEND=Agg] /opt/code-interpreter/code-interpreter.sh",
		"cmd[/home/analyst/work 1001:1001 HOME=/home/analyst,MPLBACKEND=Agg] [ -f /etc/jupyter/config.py ]",
	}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("execd calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	h.assertAllSandboxesDeleted(t)
}

// TestReadyCommandRetriedBeforeTheSnapshot: the ready command runs until it succeeds, and only then
// is the snapshot taken.
func TestReadyCommandRetriedBeforeTheSnapshot(t *testing.T) {
	var mu sync.Mutex
	tries := 0
	const ready = "python3 -c 'import jupyter'"
	h := newHarness(t, opensandboxemu.Options{Programs: func(cmd string) (opensandboxemu.CommandResult, bool) {
		mu.Lock()
		defer mu.Unlock()
		if !strings.Contains(cmd, "import jupyter") {
			return opensandboxemu.CommandResult{}, false
		}
		if tries++; tries < 3 {
			return opensandboxemu.CommandResult{ExitCode: 1}, true
		}
		return opensandboxemu.CommandResult{}, true
	}})
	s := spec("ready")
	s.ReadyCmd = ready
	if got := builders.Ensure(context.Background(), h.b, s, builders.Observer{}); got.Status != builders.StatusSuccess {
		t.Fatalf("build = %s: %s", got.Status, got.Detail)
	}
	var order []string
	for _, r := range h.emu.Requests() {
		switch {
		case strings.HasSuffix(r.Path, "/command") && strings.Contains(string(r.Body), `"background":true`):
			order = append(order, "start")
		case strings.HasSuffix(r.Path, "/command"):
			order = append(order, "ready")
		case strings.HasSuffix(r.Path, "/snapshots") && r.Method == "POST":
			order = append(order, "snapshot")
		}
	}
	if strings.Join(order, ",") != "start,ready,ready,ready,snapshot" {
		t.Errorf("order = %v, want the start command, three tries of the ready command, then the snapshot", order)
	}
}
