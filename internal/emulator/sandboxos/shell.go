package sandboxos

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Process is how a command runs in a machine.
type Process struct {
	// User is a name (or uid) from /etc/passwd; "" is root. UID and GID, when set, are used
	// instead, as execd sets ids (a uid /etc/passwd lacks runs with HOME=/).
	User     string
	UID, GID *int
	Dir      string            // the working directory; "" is /
	Env      map[string]string // added to the user's environment (Machine.Env)
	Stdin    string
	// Service marks a start command or an entrypoint: a program that serves (a server, a
	// script run by an interpreter, sleep) keeps running instead of ending.
	Service bool
	// Override, when set, decides a program's outcome before its model does (tests that need a
	// program to fail, such as pip for a package no index has); ok false lets the model run.
	Override func(argv []string) (result Result, ok bool)
}

// Result is how a command ended.
type Result struct {
	ExitCode int
	Stdout   string
	Stderr   string
	// Serving is set when the command did not end: a program in it serves (Process.Service),
	// or blocks forever (tail -f, sleep infinity).
	Serving bool
}

// codeServing is the status a program returns when it keeps running; the shell stops there.
const codeServing = -1

var errServing = errors.New("serving")

// Run runs script with bash (sh where the image has no bash), as execd does.
func (m *Machine) Run(ctx context.Context, script string, p Process) Result {
	shell := "/bin/bash"
	if !m.fs.Exists(shell) {
		shell = "/bin/sh"
	}
	return m.Exec(ctx, []string{shell, "-c", script}, p)
}

// Exec runs argv directly (no shell in between), as a container runtime starts an entrypoint
// and envd starts a process. A program that is not there exits 127.
func (m *Machine) Exec(ctx context.Context, argv []string, p Process) Result {
	pr, err := m.process(p)
	var out, errOut bytes.Buffer
	if err != nil {
		return Result{ExitCode: 1, Stderr: err.Error() + "\n"}
	}
	dir := p.Dir
	if dir == "" {
		dir = "/"
	}
	env := m.Env(pr.user, p.Env)
	std := stdio{in: strings.NewReader(p.Stdin), out: &out, err: &errOut}
	code := 0
	if len(argv) == 0 {
		code = 0
	} else if exe, problem := pr.lookPath(argv[0], env, dir); problem != 0 {
		_, _ = fmt.Fprintf(&errOut, "exec: %q: %s\n", argv[0], map[int]string{127: "executable file not found in $PATH", 126: "permission denied"}[problem])
		code = problem
	} else {
		code = pr.run(ctx, exe, argv, std, env, dir)
	}
	res := Result{ExitCode: code, Stdout: out.String(), Stderr: errOut.String()}
	if code == codeServing {
		res.ExitCode, res.Serving = 0, true
	}
	return res
}

// process is who p runs as.
func (m *Machine) process(p Process) (*proc, error) {
	pr := &proc{m: m, service: p.Service, override: p.Override}
	switch {
	case p.UID != nil:
		u, ok := m.userByUID(*p.UID)
		if !ok {
			u = User{UID: *p.UID, GID: *p.UID, Home: "/", Name: strconv.Itoa(*p.UID)}
		}
		if p.GID != nil {
			u.GID = *p.GID
		}
		pr.user = u
	case p.User == "" || p.User == "root":
		pr.user, _ = m.LookupUser("root")
		pr.user.Name, pr.user.Home = "root", orDefault(pr.user.Home, "/root")
	default:
		u, ok := m.LookupUser(p.User)
		if !ok {
			return nil, fmt.Errorf("unable to find user %s: no matching entries in passwd file", p.User)
		}
		pr.user = u
	}
	pr.cred = m.credOf(pr.user)
	return pr, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// proc is a running process's identity.
type proc struct {
	m        *Machine
	user     User
	cred     cred
	service  bool
	override func(argv []string) (Result, bool)
	depth    int // nested shells and interpreters, bounded against scripts that run themselves
}

// as is a process of the same machine running as u.
func (p *proc) as(u User) *proc {
	return &proc{m: p.m, user: u, cred: p.m.credOf(u), service: p.service, override: p.override, depth: p.depth}
}

type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// lookPath finds name as the shell does: a name with a slash is a path from dir, any other is
// searched on env's PATH. problem is 127 (not there) or 126 (not executable).
func (p *proc) lookPath(name string, env map[string]string, dir string) (exe string, problem int) {
	if strings.Contains(name, "/") {
		exe = clean(dir, name)
		if _, _, err := p.m.fs.executable(exe, p.cred); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", 127
			}
			return "", 126
		}
		return exe, 0
	}
	for _, d := range strings.Split(env["PATH"], ":") {
		if d == "" {
			continue
		}
		candidate := clean(dir, d+"/"+name)
		if _, _, err := p.m.fs.executable(candidate, p.cred); err == nil {
			return candidate, 0
		}
	}
	return "", 127
}

// run runs the executable at exe with argv: its program model, or its script.
func (p *proc) run(ctx context.Context, exe string, argv []string, std stdio, env map[string]string, dir string) int {
	if p.depth > 32 {
		_, _ = fmt.Fprintf(std.err, "%s: too many nested processes\n", argv[0])
		return 126
	}
	program, script, err := p.m.fs.executable(exe, p.cred)
	if err != nil {
		_, _ = fmt.Fprintf(std.err, "%s: %v\n", argv[0], err)
		return 126
	}
	if p.override != nil {
		if r, ok := p.override(argv); ok {
			_, _ = io.WriteString(std.out, r.Stdout)
			_, _ = io.WriteString(std.err, r.Stderr)
			return r.ExitCode
		}
	}
	c := &call{ctx: ctx, p: &proc{m: p.m, user: p.user, cred: p.cred, service: p.service, override: p.override, depth: p.depth + 1},
		argv: argv, exe: exe, std: std, env: env, dir: dir}
	if program != "" {
		model, ok := programs[program]
		if !ok {
			return c.unmodelled()
		}
		return model(c)
	}
	if line, ok := bytes.CutPrefix(script, []byte("#!")); ok {
		first, _, _ := bytes.Cut(line, []byte("\n"))
		interpreter := strings.Fields(string(first))
		if len(interpreter) > 0 {
			next := append(append(interpreter, exe), argv[1:]...)
			found, problem := c.p.lookPath(interpreter[0], env, dir)
			if problem != 0 {
				_, _ = fmt.Fprintf(std.err, "%s: %s: bad interpreter: No such file or directory\n", argv[0], interpreter[0])
				return 126
			}
			return c.p.run(ctx, found, next, std, env, dir)
		}
	}
	return c.p.runScript(ctx, string(script), argv[0], argv[1:], std, env, dir, "sh")
}

// unmodelled is a program the emulator has no model of: it ends at once, successfully, unless it
// runs as a service, which keeps running.
func (c *call) unmodelled() int {
	if c.p.service {
		return c.serves()
	}
	return 0
}

// serves records that the call keeps running.
func (c *call) serves() int {
	c.p.m.serve(strings.Join(c.argv, " "))
	return codeServing
}

// runScript interprets src with bash semantics (mvdan.cc/sh), its programs run by this machine.
func (p *proc) runScript(ctx context.Context, src, name string, params []string, std stdio, env map[string]string, dir, shell string) int {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), name)
	if err != nil {
		_, _ = fmt.Fprintf(std.err, "%s: %v\n", shell, err)
		return 2
	}
	unescapeAssignments(file)
	var pairs []string
	for k, v := range env {
		pairs = append(pairs, k+"="+v)
	}
	slices.Sort(pairs)
	runner, err := interp.New(
		interp.Env(expand.ListEnviron(pairs...)),
		func(r *interp.Runner) error { r.Dir = dir; return nil }, // interp.Dir would stat the host's filesystem
		interp.Params(append([]string{"--"}, params...)...),
		interp.StdIO(std.in, std.out, std.err),
		interp.CallHandler(p.callHandler),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return p.execHandler(shell) }),
		interp.OpenHandler(p.openHandler),
		interp.StatHandler(func(_ context.Context, name string, follow bool) (fs.FileInfo, error) {
			return p.m.fs.Stat(name, follow)
		}),
		interp.ReadDirHandler2(func(_ context.Context, name string) ([]fs.DirEntry, error) { return p.m.fs.ReadDir(name) }),
		interp.AccessHandler(p.accessHandler),
	)
	if err != nil {
		_, _ = fmt.Fprintf(std.err, "%s: %v\n", shell, err)
		return 2
	}
	err = runner.Run(ctx, file)
	var status interp.ExitStatus
	if errors.As(err, &status) {
		return int(status)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errServing):
		return codeServing
	}
	_, _ = fmt.Fprintf(std.err, "%s: %v\n", shell, err)
	return 1
}

// callHandler sends the builtins that would search the host's PATH (command -v, type) to this
// machine's models of them.
func (p *proc) callHandler(_ context.Context, args []string) ([]string, error) {
	switch {
	case args[0] == "command" && len(args) > 1 && (args[1] == "-v" || args[1] == "-V"):
		return append([]string{internalCommandV}, args[2:]...), nil
	case args[0] == "type":
		return append([]string{internalCommandV}, args[1:]...), nil
	}
	return args, nil
}

const internalCommandV = "\x00command-v"

// execHandler runs a simple command that is no builtin: a program found on the PATH.
func (p *proc) execHandler(shell string) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		env := map[string]string{}
		hc.Env.Each(func(name string, vr expand.Variable) bool {
			if vr.Exported && vr.IsSet() {
				env[name] = vr.String()
			}
			return true
		})
		std := stdio{in: hc.Stdin, out: hc.Stdout, err: hc.Stderr}
		if std.in == nil {
			std.in = strings.NewReader("")
		}
		var code int
		if args[0] == internalCommandV {
			code = p.commandV(args[1:], std, env, hc.Dir)
		} else if exe, problem := p.lookPath(args[0], env, hc.Dir); problem != 0 {
			code = problem
			_, _ = fmt.Fprintln(std.err, notFoundLine(shell, hc.Pos.Line(), args[0], problem))
		} else {
			code = p.run(ctx, exe, args, std, env, hc.Dir)
		}
		switch {
		case code == codeServing:
			return errServing
		case code != 0:
			return interp.ExitStatus(uint8(code))
		}
		return nil
	}
}

// notFoundLine is how the shell reports a program it could not run (bash, or dash as sh).
func notFoundLine(shell string, line uint, name string, problem int) string {
	what := "command not found"
	switch {
	case problem == 126:
		what = "Permission denied"
	case strings.Contains(name, "/"):
		what = "No such file or directory"
	}
	if shell == "sh" {
		if what == "command not found" {
			what = "not found"
		}
		return fmt.Sprintf("sh: %d: %s: %s", line, name, what)
	}
	return fmt.Sprintf("bash: line %d: %s: %s", line, name, what)
}

// commandV is `command -v` and `type`: each name's path, or nothing (status 1).
func (p *proc) commandV(names []string, std stdio, env map[string]string, dir string) int {
	status := 0
	for _, n := range names {
		switch exe, problem := p.lookPath(n, env, dir); {
		case interp.IsBuiltin(n):
			_, _ = fmt.Fprintln(std.out, n)
		case problem == 0:
			_, _ = fmt.Fprintln(std.out, exe)
		default:
			status = 1
		}
	}
	return status
}

func (p *proc) openHandler(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	return p.m.fs.Open(clean(hc.Dir, name), flag, perm, p.cred)
}

func (p *proc) accessHandler(_ context.Context, name string, mode interp.AccessMode) error {
	p.m.fs.mu.Lock()
	defer p.m.fs.mu.Unlock()
	_, n := p.m.fs.lookup(name, true)
	if n == nil {
		return fs.ErrNotExist
	}
	if !n.allows(p.cred, fs.FileMode(mode)) {
		return fs.ErrPermission
	}
	return nil
}

// call is one run of a program model.
type call struct {
	ctx  context.Context
	p    *proc
	argv []string
	exe  string
	std  stdio
	env  map[string]string
	dir  string
}

func (c *call) out(format string, args ...any)  { _, _ = fmt.Fprintf(c.std.out, format, args...) }
func (c *call) errf(format string, args ...any) { _, _ = fmt.Fprintf(c.std.err, format, args...) }

// name is the program's name as invoked, without its folder.
func (c *call) name() string { return path.Base(c.argv[0]) }

// abs is p from the call's working directory.
func (c *call) abs(p string) string { return clean(c.dir, p) }

// sub runs argv (looked up on the PATH) as this process, with its stdio.
func (c *call) sub(argv []string, env map[string]string, dir string) int {
	exe, problem := c.p.lookPath(argv[0], env, dir)
	if problem != 0 {
		c.errf("%s: %s: command not found\n", c.name(), argv[0])
		return problem
	}
	return c.p.run(c.ctx, exe, argv, c.std, env, dir)
}
