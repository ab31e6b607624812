package sandboxos

import (
	"net/url"
	"path"
	"strings"
)

// Models of the network tools (curl, wget, git) and of what starts services (systemctl,
// jupyter). The network is not modelled: a remote URL answers 200 with an empty body, and any git
// repository clones. A URL on localhost answers only once something serves in the machine.

func init() {
	register(map[string]program{"curl": curl, "wget": wget, "git": git, "systemctl": systemctl,
		"jupyter": jupyter, "jupyter-server": jupyterServer, "ss": ss, "netstat": ss, "pgrep": pgrep})
}

// local tells whether raw names this machine.
func local(raw string) (host, port string, ok bool) {
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	host, port = u.Hostname(), u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return host, port, host == "localhost" || host == "127.0.0.1" || host == "0.0.0.0" || host == "::1"
}

func curl(c *call) int {
	flags, urls := options(c.argv[1:], "-o", "--output", "-w", "--write-out", "-X", "--request", "-H", "--header", "-d",
		"--data", "--data-raw", "--data-binary", "-m", "--max-time", "--connect-timeout", "--retry", "--retry-delay", "-u",
		"--user", "-A", "--user-agent", "-e", "-b", "-c", "-F", "--form", "-T", "--upload-file", "--cacert", "-x", "--proxy")
	if has(flags, "-V", "--version") {
		c.out("curl 7.88.1 (x86_64-pc-linux-gnu)\n")
		return 0
	}
	if len(urls) == 0 {
		c.errf("curl: no URL specified!\n")
		return 2
	}
	silent := has(flags, "-s", "--silent") && !has(flags, "-S", "--show-error")
	for _, raw := range urls {
		if host, port, isLocal := local(raw); isLocal && len(c.p.m.Serving()) == 0 {
			if !silent {
				c.errf("curl: (7) Failed to connect to %s port %s after 0 ms: Couldn't connect to server\n", host, port)
			}
			if w := value(flags, "-w", "--write-out"); w != "" {
				c.out("%s", strings.ReplaceAll(w, "%{http_code}", "000"))
			}
			return 7
		}
		if out := value(flags, "-o", "--output"); out != "" && out != "/dev/null" {
			if err := c.p.m.fs.WriteFile(c.abs(out), nil, 0o644, c.p.cred); err != nil {
				c.errf("curl: (23) Failure writing output to destination\n")
				return 23
			}
		} else if has(flags, "-O", "--remote-name") {
			name := path.Base(raw)
			if err := c.p.m.fs.WriteFile(c.abs(name), nil, 0o644, c.p.cred); err != nil {
				c.errf("curl: (23) Failure writing output to destination\n")
				return 23
			}
		}
		if w := value(flags, "-w", "--write-out"); w != "" {
			c.out("%s", strings.NewReplacer("%{http_code}", "200", "%{response_code}", "200", `\n`, "\n").Replace(w))
		}
	}
	return 0
}

func wget(c *call) int {
	flags, urls := options(c.argv[1:], "-O", "--output-document", "-P", "--directory-prefix", "-T", "--timeout", "-t", "--tries", "--header", "-U")
	if len(urls) == 0 {
		c.errf("wget: missing URL\n")
		return 1
	}
	for _, raw := range urls {
		if host, port, isLocal := local(raw); isLocal && len(c.p.m.Serving()) == 0 {
			c.errf("Connecting to %s:%s... failed: Connection refused.\n", host, port)
			return 4
		}
		out := value(flags, "-O", "--output-document")
		if out == "" {
			out = path.Join(value(flags, "-P", "--directory-prefix"), orDefault(path.Base(raw), "index.html"))
		}
		if out == "-" {
			continue
		}
		if err := c.p.m.fs.WriteFile(c.abs(out), nil, 0o644, c.p.cred); err != nil {
			c.errf("%s: %s\n", out, reason(err))
			return 3
		}
	}
	return 0
}

// git models clone (a working tree with a .git folder) and accepts its other commands.
func git(c *call) int {
	args := c.argv[1:]
	dir := c.dir
	for len(args) > 1 && (args[0] == "-C" || args[0] == "-c") {
		if args[0] == "-C" {
			dir = clean(dir, args[1])
		}
		args = args[2:]
	}
	if len(args) == 0 {
		c.out("usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]\n")
		return 1
	}
	switch args[0] {
	case "--version", "version":
		c.out("git version 2.39.5\n")
		return 0
	case "clone":
	case "init":
		_, _ = c.p.m.fs.MkdirAll(path.Join(dir, ".git"), 0o755, c.p.cred.uid, c.p.cred.gid, c.p.cred)
		return 0
	default:
		if !c.p.m.fs.Exists(path.Join(dir, ".git")) && args[0] != "config" && args[0] != "ls-remote" {
			c.errf("fatal: not a git repository (or any of the parent directories): .git\n")
			return 128
		}
		return 0
	}
	_, operands := options(args[1:], "-b", "--branch", "--depth", "--filter", "-o", "--origin", "-c", "--config", "--reference", "-j", "--jobs")
	if len(operands) == 0 {
		c.errf("fatal: You must specify a repository to clone.\n")
		return 129
	}
	repo := operands[0]
	target := strings.TrimSuffix(path.Base(strings.TrimSuffix(repo, "/")), ".git")
	if len(operands) > 1 {
		target = operands[1]
	}
	abs := clean(dir, target)
	if entries, err := c.p.m.fs.ReadDir(abs); err == nil && len(entries) > 0 {
		c.errf("fatal: destination path '%s' already exists and is not an empty directory.\n", target)
		return 128
	}
	c.errf("Cloning into '%s'...\n", target)
	if _, err := c.p.m.fs.MkdirAll(abs+"/.git", 0o755, c.p.cred.uid, c.p.cred.gid, c.p.cred); err != nil {
		c.errf("fatal: could not create work tree dir '%s': %s\n", target, reason(err))
		return 128
	}
	_ = c.p.m.fs.WriteFile(abs+"/.git/HEAD", []byte("ref: refs/heads/main\n"), 0o644, c.p.cred)
	_ = c.p.m.fs.WriteFile(abs+"/README.md", []byte("# "+target+"\n"), 0o644, c.p.cred)
	return 0
}

// systemctl works where systemd is the init (E2B's sandboxes); starting a unit starts it.
func systemctl(c *call) int {
	if !c.p.m.Systemd {
		c.errf("System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n")
		return 1
	}
	_, args := options(c.argv[1:])
	if len(args) == 0 {
		return 0
	}
	switch args[0] {
	case "start", "restart", "enable":
		if c.p.cred.uid != 0 {
			c.errf("Failed to %s %s.service: Interactive authentication required.\n", args[0], strings.Join(args[1:], " "))
			return 1
		}
		for _, unit := range args[1:] {
			c.p.m.serve("systemd unit " + unit)
		}
	case "is-active":
		for _, unit := range args[1:] {
			if !containsPrefix(c.p.m.Serving(), "systemd unit "+unit) {
				c.out("inactive\n")
				return 3
			}
			c.out("active\n")
		}
	}
	return 0
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// jupyter serves (server, lab, notebook, or no subcommand); its other subcommands (kernelspec
// list, --version, ...) answer and end.
func jupyter(c *call) int {
	if len(c.argv) < 2 {
		return c.serves()
	}
	switch c.argv[1] {
	case "server", "lab", "notebook", "jupyter-server":
		return c.serves()
	case "--version", "-V":
		c.out("jupyter_core: 5.7.2\n")
	}
	return 0
}

// jupyterServer is a code interpreter's start script: it starts Jupyter and keeps running.
func jupyterServer(c *call) int { return c.serves() }

// ss lists a listening socket for each thing that serves (ports are not modelled: whatever is
// asked about listens once something serves).
func ss(c *call) int {
	for range c.p.m.Serving() {
		c.out("tcp   LISTEN 0      128          0.0.0.0:0          0.0.0.0:*\n")
	}
	return 0
}

// pgrep finds what serves by a part of its command line.
func pgrep(c *call) int {
	_, args := options(c.argv[1:], "-u", "-g")
	for _, s := range c.p.m.Serving() {
		if len(args) > 0 && strings.Contains(s, args[len(args)-1]) {
			c.out("%d\n", 100)
			return 0
		}
	}
	return 1
}
