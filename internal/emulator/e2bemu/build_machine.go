package e2bemu

import (
	"context"
	"fmt"
	"maps"
	"path"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// A build runs in a sandboxos machine, as E2B's orchestrator runs it in a build sandbox
// (orchestrator/pkg/template/build): the base phase pulls the image and provisions it (E2B's
// packages, installed with the distribution's package manager: phases/base/distro/distro.go),
// the user phase adds the default user "user" with NOPASSWD sudo (phases/user, commands/user.go),
// each step runs as its command does (commands/*.go) and finalize prepares the filesystem
// (finalize/configure.sh), then runs the start and ready commands. What each layer leaves is kept
// with the layer's cache key, so a cached layer's filesystem is the one that was built.

// stepContext is the metadata.Context a step runs with: the user, the working directory ("" is
// the user's home) and the environment the steps before it set.
type stepContext struct {
	user, workdir string
	env           map[string]string
}

func (c stepContext) clone() stepContext {
	c.env = maps.Clone(c.env)
	return c
}

// layerState is a layer's filesystem and the context after it.
type layerState struct {
	machine *sandboxos.Machine
	ctx     stepContext
}

func (l layerState) clone() layerState {
	return layerState{machine: l.machine.Snapshot(), ctx: l.ctx.clone()}
}

// e2bPackages are what provisioning installs when missing (distro.go Profiles[].Packages).
var e2bPackages = map[sandboxos.Family]string{
	sandboxos.Debian: "systemd systemd-sysv openssh-server sudo chrony socat curl ca-certificates fuse3 iptables git nfs-common less nftables iputils-ping jq iproute2",
	sandboxos.Ubuntu: "systemd systemd-sysv openssh-server sudo chrony socat curl ca-certificates fuse3 iptables git nfs-common less nftables iputils-ping jq iproute2",
	sandboxos.Alpine: "openrc shadow openssh sudo chrony socat curl ca-certificates fuse3 iptables git nfs-utils less nftables iputils jq bash util-linux-misc iproute2",
}

// provision is the base phase's provisioning of a pulled image (phases/base/provision.sh): it
// fails when the image has no shell to run it, or when its packages cannot be installed.
func provision(img sandboxos.Image) (*sandboxos.Machine, string) {
	m := sandboxos.Boot(img)
	m.Systemd = true // E2B sandboxes boot systemd (OpenRC on Alpine); systemctl is modelled for both
	install := "apt-get -q update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get -qq install -y --no-install-recommends "
	if img.Family == sandboxos.Alpine {
		install = "apk add --no-cache "
	}
	script := install + e2bPackages[img.Family]
	if img.Family == sandboxos.Distroless {
		script = "apt-get -q update" // its os-release says debian, but it has no apt-get
	}
	r := m.Exec(context.Background(), []string{"/bin/sh", "-c", script}, sandboxos.Process{})
	if r.ExitCode != 0 {
		tail := strings.TrimSpace(r.Stderr)
		if tail == "" {
			tail = "/bin/sh: not found"
		}
		return nil, fmt.Sprintf("error provisioning sandbox: exit status: %d; provisioning output tail:\n%s", r.ExitCode, tail)
	}
	_ = m.WriteFile("/usr/local/share/e2b/distro.env", []byte("E2B_DISTRO_ID='"+string(img.Family)+"'\n"), 0o644, "")
	return m, ""
}

// adminGroup is the group the default user joins (distro.go AdminGroup).
func adminGroup(f sandboxos.Family) string {
	if f == sandboxos.Alpine {
		return "wheel"
	}
	return "sudo"
}

// userStep is commands/user.go: create the user when `id -u` does not find it (useradd
// --create-home --shell /bin/bash), and with sudo (only the default user gets it: the SDK's
// setUser never asks) join the admin group and get a NOPASSWD sudoers line.
func userStep(st *layerState, name string, sudo bool) (string, string) {
	m := st.machine
	if r := m.Run(context.Background(), "id -u "+name, sandboxos.Process{Env: st.ctx.env}); r.ExitCode != 0 {
		if r := m.Run(context.Background(), "useradd --create-home --shell /bin/bash "+name, sandboxos.Process{Env: st.ctx.env}); r.ExitCode != 0 {
			return r.Stderr, fmt.Sprintf("failed to create user: exit status %d", r.ExitCode)
		}
	}
	if sudo {
		script := fmt.Sprintf("usermod -aG %s %s && (grep -q '^%s ALL=(ALL:ALL) NOPASSWD: ALL' /etc/sudoers || echo '%s ALL=(ALL:ALL) NOPASSWD: ALL' >>/etc/sudoers)",
			adminGroup(m.Image().Family), name, name, name)
		if r := m.Run(context.Background(), script, sandboxos.Process{Env: st.ctx.env}); r.ExitCode != 0 {
			return r.Stderr, fmt.Sprintf("failed to add user to sudo group: exit status %d", r.ExitCode)
		}
	}
	st.ctx.user = name
	return "", ""
}

// process is how a command of the context runs: as its user, in its working directory (the
// user's home when none), with its environment, PATH extended with the standard folders
// (sandboxtools/command.go).
func (c stepContext) process(user string) sandboxos.Process {
	env := maps.Clone(c.env)
	if p, ok := env["PATH"]; ok {
		env["PATH"] = p + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	return sandboxos.Process{User: defaultTo(user, c.user), Dir: c.workdir, Env: env}
}

// runCommand runs cmd as `/bin/bash -l -c` (commands/run.go, sandboxtools/command.go), as user
// ("" for the context's), in st's machine. A user the image lacks fails before anything runs.
func runCommand(st layerState, cmd, user string, service bool) sandboxos.Result {
	p := st.ctx.process(user)
	u, ok := st.machine.LookupUser(defaultTo(p.User, "root"))
	if !ok {
		return sandboxos.Result{ExitCode: 1, Stderr: fmt.Sprintf("unable to find user %s: no matching entries in passwd file\n", p.User)}
	}
	if p.Dir == "" {
		p.Dir = u.Home
	}
	p.Service = service
	return st.machine.Exec(context.Background(), []string{"/bin/bash", "-l", "-c", cmd}, p)
}

// envStep is commands/env.go: each value is expanded by printf in the build sandbox, as root.
func envStep(st *layerState, args []string) (string, string) {
	for i := 0; i+1 < len(args); i += 2 {
		escaped := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", "$(", "\\$(").Replace(args[i+1])
		r := runCommand(*st, `printf "%s" "`+escaped+`"`, "root", false)
		if r.ExitCode != 0 {
			return r.Stderr, fmt.Sprintf("failed to evaluate env value: exit status %d", r.ExitCode)
		}
		if st.ctx.env == nil {
			st.ctx.env = map[string]string{}
		}
		st.ctx.env[args[i]] = r.Stdout
	}
	return "", ""
}

// workdirStep is commands/workdir.go: the path, relative to the current working directory ("/"
// when none is set), is made and the folders it creates are given to the current user.
func workdirStep(st *layerState, dir string) (string, string) {
	current := defaultTo(st.ctx.workdir, "/")
	if !strings.HasPrefix(dir, "/") {
		dir = path.Join(current, dir)
	}
	if _, err := st.machine.MkdirAll(dir, 0o755, st.ctx.user+":"+st.ctx.user); err != nil {
		return err.Error(), "failed to create workdir: exit status 1"
	}
	st.ctx.workdir = path.Clean(dir)
	return "", ""
}

func defaultTo(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// pullProblem is the reason a build from ref fails at "base" because the image does not pull
// (core/oci/oci.go wrapImagePullError), or "".
func pullProblem(err *sandboxos.PullError) string {
	switch err.Code {
	case sandboxos.ManifestUnknown:
		return fmt.Sprintf("image '%s' not found: the image or tag does not exist in the registry", err.Ref)
	case sandboxos.NameUnknown:
		return fmt.Sprintf("repository '%s' not found: verify the image name is correct", err.Ref)
	}
	return fmt.Sprintf("access denied to '%s': authentication required or insufficient permissions", err.Ref)
}
