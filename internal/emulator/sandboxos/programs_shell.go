package sandboxos

import (
	"io"
	"maps"
	"strings"
)

// Models of the shells and of the programs that run a command as another user.

func init() {
	register(map[string]program{"bash": shellProgram, "sh": shellProgram, "ash": shellProgram, "dash": shellProgram,
		"sudo": sudo, "su": su})
}

// shellProgram is bash (or sh): -c SCRIPT [NAME [ARGS]], a script file, or a script on stdin.
// Options it does not model (-l, -e, -x, -o OPT, -i) are accepted; -e and -o are passed to set.
func shellProgram(c *call) int {
	shell := c.name()
	if shell != "bash" {
		shell = "sh"
	}
	args := c.argv[1:]
	var sets []string
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-c" && args[0] != "-" {
		switch a := args[0]; {
		case a == "-o" && len(args) > 1:
			sets = append(sets, "-o "+args[1])
			args = args[1:]
		case a == "--login" || a == "-l" || a == "-i" || a == "--noprofile" || a == "--norc":
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			if flags := strings.Trim(strings.ReplaceAll(strings.ReplaceAll(a[1:], "l", ""), "i", ""), "c"); flags != "" {
				sets = append(sets, "-"+flags)
			}
			if strings.Contains(a, "c") {
				args = append([]string{"-c"}, args[1:]...)
				continue
			}
		}
		args = args[1:]
	}
	prelude := ""
	if len(sets) > 0 {
		prelude = "set " + strings.Join(sets, " ") + "\n"
	}
	switch {
	case len(args) > 0 && args[0] == "-c":
		if len(args) < 2 {
			c.errf("%s: -c: option requires an argument\n", shell)
			return 2
		}
		name, params := shell, []string(nil)
		if len(args) > 2 {
			name, params = args[2], args[3:]
		}
		return c.p.runScript(c.ctx, prelude+args[1], name, params, c.std, c.env, c.dir, shell)
	case len(args) > 0 && args[0] != "-":
		script, err := c.p.m.fs.ReadFile(c.abs(args[0]))
		if err != nil {
			c.errf("%s: %s: %s\n", shell, args[0], reason(err))
			return 127
		}
		return c.p.runScript(c.ctx, prelude+string(script), args[0], args[1:], c.std, c.env, c.dir, shell)
	}
	script, _ := io.ReadAll(c.std.in)
	return c.p.runScript(c.ctx, prelude+string(script), shell, nil, c.std, c.env, c.dir, shell)
}

// securePath is sudo's secure_path on Debian and Ubuntu (and the PATH su gives root).
const securePath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// sudo runs a command as another user (root by default) when sudoers lets the caller without a
// password: root always, a user with a NOPASSWD rule for it or one of its groups. Anyone else
// would be asked for a password, which a command without a terminal cannot give.
func sudo(c *call) int {
	args := c.argv[1:]
	target, keepEnv, login := "root", []string(nil), false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		switch {
		case a == "--":
			args = args[1:]
			goto run
		case a == "-u" || a == "--user":
			if len(args) < 2 {
				c.errf("sudo: option requires an argument -- 'u'\n")
				return 1
			}
			target, args = args[1], args[1:]
		case strings.HasPrefix(a, "--user="):
			target = strings.TrimPrefix(a, "--user=")
		case a == "-E" || a == "--preserve-env":
			keepEnv = append(keepEnv, "*")
		case strings.HasPrefix(a, "--preserve-env="):
			keepEnv = append(keepEnv, strings.Split(strings.TrimPrefix(a, "--preserve-env="), ",")...)
		case a == "-i" || a == "--login":
			login = true
		case a == "-g" || a == "-C" || a == "-h" || a == "-p" || a == "-r" || a == "-t" || a == "-U" || a == "-T":
			args = args[1:]
		}
		args = args[1:]
	}
run:
	if len(args) == 0 && !login {
		c.errf("usage: sudo -h | -K | -k | -V\nusage: sudo [-AbEHknPS] [-C num] [-D directory] [-g group] [-h host] [-p prompt] [-R directory] [-T timeout] [-u user] [VAR=value] [-i | -s] [<command>]\n")
		return 1
	}
	if c.p.cred.uid != 0 {
		if _, nopasswd := c.p.m.sudoRule(c.p.user); !nopasswd {
			c.errf("sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper\nsudo: a password is required\n")
			return 1
		}
	}
	u, ok := c.p.m.LookupUser(target)
	if !ok {
		c.errf("sudo: unknown user %s\nsudo: error initializing audit plugin sudoers_audit\n", target)
		return 1
	}
	vars := map[string]string{"PATH": securePath, "HOME": u.Home, "USER": u.Name, "LOGNAME": u.Name, "SHELL": u.Shell}
	for _, k := range keepEnv {
		if k == "*" {
			vars = maps.Clone(c.env)
			vars["HOME"], vars["USER"], vars["LOGNAME"] = u.Home, u.Name, u.Name
			continue
		}
		if v, ok := c.env[k]; ok {
			vars[k] = v
		}
	}
	for len(args) > 0 && strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "/") {
		k, v, _ := strings.Cut(args[0], "=")
		vars[k], args = v, args[1:]
	}
	as := c.p.as(u)
	if login {
		args = append([]string{u.Shell, "-l"}, loginCommand(args)...)
	}
	exe, problem := as.lookPath(args[0], vars, c.dir)
	if problem != 0 {
		c.errf("sudo: %s: command not found\n", args[0])
		return 1
	}
	return as.run(c.ctx, exe, args, c.std, vars, c.dir)
}

func loginCommand(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	return []string{"-c", strings.Join(args, " ")}
}

// su runs a shell (or -c COMMAND) as another user; only root can without a password.
func su(c *call) int {
	flags, args := options(c.argv[1:], "-c", "--command", "-s", "--shell")
	target := "root"
	if len(args) > 0 && args[0] == "-" {
		args = args[1:]
	}
	if len(args) > 0 {
		target = args[0]
	}
	if c.p.cred.uid != 0 {
		c.errf("su: Authentication failure\n")
		return 1
	}
	u, ok := c.p.m.LookupUser(target)
	if !ok {
		c.errf("su: user %s does not exist or the user entry does not contain all the required fields\n", target)
		return 1
	}
	shell := orDefault(value(flags, "-s", "--shell"), u.Shell)
	if strings.HasSuffix(shell, "nologin") {
		c.errf("This account is currently not available.\n")
		return 1
	}
	argv := []string{shell}
	if cmd := value(flags, "-c", "--command"); cmd != "" {
		argv = append(argv, "-c", cmd)
	}
	vars := maps.Clone(c.env)
	vars["HOME"], vars["USER"], vars["LOGNAME"] = u.Home, u.Name, u.Name
	as := c.p.as(u)
	exe, problem := as.lookPath(shell, vars, c.dir)
	if problem != 0 {
		c.errf("su: failed to execute %s: No such file or directory\n", shell)
		return 1
	}
	return as.run(c.ctx, exe, argv, c.std, vars, c.dir)
}
