package sandboxos_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// boot starts a machine of an image the catalogue resolves.
func boot(t *testing.T, ref string) *sandboxos.Machine {
	t.Helper()
	img, err := new(sandboxos.Catalogue).Resolve(ref)
	if err != nil {
		t.Fatalf("resolve %s: %v", ref, err)
	}
	return sandboxos.Boot(img)
}

func run(m *sandboxos.Machine, script string, p sandboxos.Process) sandboxos.Result {
	return m.Run(context.Background(), script, p)
}

// want runs script as root and checks its exit code and, when set, its stdout.
func want(t *testing.T, m *sandboxos.Machine, script string, code int, stdout string) sandboxos.Result {
	t.Helper()
	r := run(m, script, sandboxos.Process{})
	if r.ExitCode != code || (stdout != "" && r.Stdout != stdout) {
		t.Errorf("%q = exit %d, stdout %q, stderr %q; want exit %d, stdout %q", script, r.ExitCode, r.Stdout, r.Stderr, code, stdout)
	}
	return r
}

func TestShellSemantics(t *testing.T) {
	m := boot(t, "ubuntu:24.04")
	want(t, m, "exit 3", 3, "")
	want(t, m, "false", 1, "")
	want(t, m, "false || true", 0, "")
	want(t, m, "false && echo no", 1, "")
	want(t, m, "echo a; echo b", 0, "a\nb\n")
	want(t, m, "sh -c 'exit 4'", 4, "")
	want(t, m, "bash -c 'echo \"$0 $1\"' x y", 0, "x y\n")
	want(t, m, "test -f /missing", 1, "")
	want(t, m, "[ -d /etc ] && echo yes", 0, "yes\n")
	want(t, m, `X='a b'; echo "$X" '$X'`, 0, "a b $X\n")
	want(t, m, `X='it'\''s' Y=a\ b\$c\"d\\e; echo "$X $Y"`, 0, "it's a b$c\"d\\e\n") // bash drops an unquoted escape's backslash
	want(t, m, `export Z=\'q\'; sh -c 'echo "$Z"'`, 0, "'q'\n")
	want(t, m, "echo hi > /tmp/f; cat /tmp/f", 0, "hi\n")
	want(t, m, "cat /tmp/f", 0, "hi\n") // the next command sees what the last wrote
	want(t, m, "echo more >> /tmp/f && wc -l < /tmp/f", 0, "2\n")
	want(t, m, "cd /opt; pwd", 0, "/opt\n")
	if r := want(t, m, "cd /opt; python3 -V", 127, ""); !strings.Contains(r.Stderr, "python3: command not found") {
		t.Errorf("stderr %q, want bash's command not found", r.Stderr)
	}
	want(t, m, "command -v bash", 0, "/usr/bin/bash\n")
	want(t, m, "command -v node", 1, "")
	want(t, m, "echo $(basename /a/b.txt)", 0, "b.txt\n")
	want(t, m, "for f in /etc/passwd /etc/group; do test -s $f || exit 9; done", 0, "")
	want(t, m, "curl -V", 127, "")
}

func TestEnvironmentAndDirectory(t *testing.T) {
	m := boot(t, "python:3.12")
	r := run(m, "echo $A-$HOME; pwd", sandboxos.Process{Env: map[string]string{"A": "1"}, Dir: "/tmp"})
	if r.Stdout != "1-/root\n/tmp\n" {
		t.Errorf("stdout %q, want the env applied and the cwd used", r.Stdout)
	}
	r = run(m, "env | grep '^B='", sandboxos.Process{Env: map[string]string{"B": "x y"}})
	if r.Stdout != "B=x y\n" {
		t.Errorf("env printed %q", r.Stdout)
	}
}

func TestPackageManagers(t *testing.T) {
	alpine := boot(t, "python:3.12-alpine")
	want(t, alpine, "apt-get install -y curl", 127, "")
	want(t, alpine, "apk add curl", 1, "") // no index yet
	want(t, alpine, "apk add --no-cache curl && curl -V", 0, "")
	want(t, alpine, "bash -c true", 127, "") // Alpine has no bash until it is added

	debian := boot(t, "debian:12")
	want(t, debian, "apt-get install -y curl", 100, "") // official images ship no package lists
	want(t, debian, "apt-get update && apt-get install -y curl git", 0, "")
	want(t, debian, "git --version && curl -V", 0, "")
	want(t, debian, "apk add curl", 127, "")
	if r := run(debian, "apt-get install -y jq", sandboxos.Process{User: "nobody"}); r.ExitCode != 100 || !strings.Contains(r.Stderr, "are you root?") {
		t.Errorf("apt-get as nobody = %d %q, want dpkg's lock refusal", r.ExitCode, r.Stderr)
	}
}

func TestPythonAndPip(t *testing.T) {
	m := boot(t, "python:3.12-slim")
	want(t, m, "python -V", 0, "Python 3.12.12\n")
	want(t, m, `python -c "import numpy"`, 1, "")
	want(t, m, "pip install numpy==2.0.0", 0, "")
	want(t, m, `python3 -c "import numpy; print(numpy.__version__)"`, 0, "2.0.0\n")
	want(t, m, "pip install 'bad name!'", 1, "")
	want(t, m, "python3 /app/main.py", 2, "")

	// The distribution's Python refuses pip outside a venv (PEP 668) unless told to break it.
	u := boot(t, "ubuntu:24.04")
	want(t, u, "apt-get update && apt-get install -y python3 python3-pip", 0, "")
	if r := want(t, u, "pip install requests", 1, ""); !strings.Contains(r.Stderr, "externally-managed-environment") {
		t.Errorf("stderr %q, want PEP 668's refusal", r.Stderr)
	}
	want(t, u, "PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install requests && python3 -c 'import requests'", 0, "")
	want(t, u, "python3 -m venv /opt/venv && . /opt/venv/bin/activate && pip install rich && python -c 'import rich'", 0, "")
}

func TestNodeImage(t *testing.T) {
	m := boot(t, "node:20")
	want(t, m, "node --version", 0, "v20.19.5\n")
	want(t, m, "npm --version && git --version && curl -V && getent passwd node", 0, "")
	want(t, m, "mkdir /app && cd /app && npm install left-pad >/dev/null && node -e \"require('left-pad'); console.log('ok')\"", 0, "ok\n")
	want(t, m, "node -e \"require('express')\"", 1, "")
	if r := run(m, "npm install -g typescript", sandboxos.Process{User: "node"}); r.ExitCode != 243 {
		t.Errorf("npm -g as node = %d %q, want EACCES (243)", r.ExitCode, r.Stderr)
	}
	want(t, m, "npm install -g typescript && tsc", 0, "")
}

func TestUsersAndSudo(t *testing.T) {
	m := boot(t, "ubuntu:24.04")
	want(t, m, "getent passwd ubuntu", 0, "ubuntu:x:1000:1000::/home/ubuntu:/bin/bash\n")
	want(t, m, "getent passwd www-data >/dev/null && getent passwd nobody >/dev/null", 0, "")
	want(t, m, "getent passwd app", 2, "")
	want(t, m, "useradd --create-home --shell /bin/bash app && id -u app && test -d /home/app", 0, "1001\n")
	want(t, m, "useradd app", 9, "")
	if r := run(m, "useradd other", sandboxos.Process{User: "app"}); r.ExitCode != 1 {
		t.Errorf("useradd as app = %d, want 1", r.ExitCode)
	}
	if r := run(m, "id -un", sandboxos.Process{User: "app"}); r.Stdout != "app\n" {
		t.Errorf("id -un as app = %q", r.Stdout)
	}
	want(t, m, "apt-get update && apt-get install -y sudo", 0, "")
	// sudo works only for a user sudoers lets in without a password.
	if r := run(m, "sudo true", sandboxos.Process{User: "app"}); r.ExitCode != 1 || !strings.Contains(r.Stderr, "a password is required") {
		t.Errorf("sudo as app = %d %q, want a password refusal", r.ExitCode, r.Stderr)
	}
	want(t, m, "echo 'app ALL=(ALL:ALL) NOPASSWD: ALL' >> /etc/sudoers", 0, "")
	if r := run(m, "sudo id -u", sandboxos.Process{User: "app"}); r.ExitCode != 0 || r.Stdout != "0\n" {
		t.Errorf("sudo as app with NOPASSWD = %d %q %q", r.ExitCode, r.Stdout, r.Stderr)
	}
	// Files are owned and checked: app cannot write /etc.
	if r := run(m, "touch /etc/x", sandboxos.Process{User: "app"}); r.ExitCode != 1 || !strings.Contains(r.Stderr, "Permission denied") {
		t.Errorf("touch /etc/x as app = %d %q", r.ExitCode, r.Stderr)
	}
}

func TestCatalogue(t *testing.T) {
	c := new(sandboxos.Catalogue)
	for ref, family := range map[string]sandboxos.Family{
		"python:3.12-alpine": sandboxos.Alpine, "alpine:3.20": sandboxos.Alpine, "node:20": sandboxos.Debian,
		"ubuntu:24.04": sandboxos.Ubuntu, "docker.io/library/python:3.12": sandboxos.Debian,
		"gcr.io/distroless/static-debian12": sandboxos.Distroless,
	} {
		img, err := c.Resolve(ref)
		if err != nil || img.Family != family || img.Assumed {
			t.Errorf("%s = %s (assumed %v, %v), want %s", ref, img.Family, img.Assumed, err, family)
		}
	}
	for ref, code := range map[string]string{"pyhton:3.12": sandboxos.Unauthorized, "python:2.9": sandboxos.ManifestUnknown,
		"node:99": sandboxos.ManifestUnknown, "ubuntu:24.05": sandboxos.ManifestUnknown} {
		if _, err := c.Resolve(ref); err == nil || err.Code != code {
			t.Errorf("%s pulled (%v), want %s", ref, err, code)
		}
	}
	img, err := c.Resolve("123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1")
	if err != nil || !img.Assumed || img.Family != sandboxos.Debian {
		t.Errorf("a private image = %+v %v, want an assumed Debian image", img.Family, err)
	}
}

func TestDistrolessHasNoShell(t *testing.T) {
	m := boot(t, "gcr.io/distroless/static-debian12")
	if r := run(m, "true", sandboxos.Process{}); r.ExitCode != 127 {
		t.Errorf("a command in distroless = %d, want 127 (no shell)", r.ExitCode)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	m := boot(t, "debian:12")
	want(t, m, "touch /a", 0, "")
	c := m.Clone()
	want(t, m, "touch /b", 0, "")
	want(t, c, "test -f /a && ! test -f /b", 0, "")
}

func TestServices(t *testing.T) {
	m := boot(t, "e2bdev/code-interpreter:latest")
	want(t, m, "curl -s -o /dev/null -w '%{http_code}' http://localhost:49999/health | grep -q 200", 1, "")
	r := m.Exec(context.Background(), []string{"/root/.jupyter/start-up.sh"}, sandboxos.Process{Service: true})
	if !r.Serving {
		t.Fatalf("start-up.sh = %+v, want it serving", r)
	}
	want(t, m, "curl -s -o /dev/null -w '%{http_code}' http://localhost:49999/health | grep -q 200", 0, "")
	want(t, m, `apt-get update >/dev/null && apt-get install -y iproute2 procps >/dev/null && [ -n "$(ss -Htuln sport = :49999)" ] && pgrep start-up > /dev/null`, 0, "")
	if r := run(m, "tail -f /dev/null", sandboxos.Process{}); !r.Serving {
		t.Errorf("tail -f = %+v, want it to keep running", r)
	}
	if r := run(m, "sleep 5; exit 2", sandboxos.Process{}); r.ExitCode != 2 {
		t.Errorf("sleep in a command = %+v, want it to return", r)
	}
	if r := m.Exec(context.Background(), []string{"sleep", "5"}, sandboxos.Process{Service: true}); !r.Serving {
		t.Errorf("sleep as an entrypoint = %+v, want it running", r)
	}
	if r := m.Exec(context.Background(), []string{"true"}, sandboxos.Process{Service: true}); r.Serving || r.ExitCode != 0 {
		t.Errorf("true as an entrypoint = %+v, want it ended", r)
	}
}

func TestDeclaredImage(t *testing.T) {
	c := new(sandboxos.Catalogue)
	if err := c.Declare("ghcr.io/acme/app", sandboxos.Declaration{Family: sandboxos.Alpine, Programs: []string{"node", "/opt/app/run"},
		Users: []string{"app"}, Entrypoint: []string{"/opt/app/run"}}); err != nil {
		t.Fatal(err)
	}
	img, err := c.Resolve("ghcr.io/acme/app:2")
	if err != nil || img.Assumed || img.Family != sandboxos.Alpine {
		t.Fatalf("declared image = %+v %v", img, err)
	}
	m := sandboxos.Boot(img)
	want(t, m, "node --version && getent passwd app && apk --version", 0, "")
	want(t, m, "python3 -V", 127, "")
	if r := m.Exec(context.Background(), img.Entrypoint, sandboxos.Process{Service: true}); !r.Serving {
		t.Errorf("the declared entrypoint = %+v, want it running (a program without a model serves)", r)
	}
	if err := c.Declare("x", sandboxos.Declaration{Family: "windows"}); err == nil {
		t.Error("an unknown family was accepted")
	}
}
