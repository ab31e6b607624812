package sandboxos

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Models of Node.js, npm and npx. npm install writes node_modules/<name>/package.json (globally
// under the prefix's lib/node_modules, with the package's commands in its bin), so `node -e
// "require('x')"` later finds it. The registry is not modelled: any well-formed name exists.

func init() {
	register(map[string]program{"node": nodeJS, "npm": npm, "npx": npx, "node-entrypoint": nodeEntrypoint})
}

var nodeBuiltins = []string{"fs", "path", "http", "https", "os", "child_process", "crypto", "url", "util", "events", "stream",
	"net", "assert", "buffer", "zlib", "readline", "querystring", "timers", "worker_threads", "dns", "tls", "process", "module"}

// npmBins are the commands global packages add, where they differ from the package's name.
var npmBins = map[string][]string{"typescript": {"tsc", "tsserver"}, "@anthropic-ai/claude-code": {"claude"},
	"@openai/codex": {"codex"}, "netlify-cli": {"netlify"}, "@angular/cli": {"ng"}, "@vue/cli": {"vue"},
	"http-server": {"http-server"}, "ts-node": {"ts-node"}, "@google/gemini-cli": {"gemini"}}

var npmName = regexp.MustCompile(`^(@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*(@[^\s]+)?$`)

func nodeJS(c *call) int {
	args := c.argv[1:]
	version := orDefault(c.p.m.image.Node, nodeVersions["20"])
	if len(args) == 0 {
		return 0 // the REPL, without a terminal, reads stdin to its end
	}
	switch a := args[0]; {
	case a == "-v" || a == "--version":
		c.out("%s\n", version)
		return 0
	case a == "-e" || a == "--eval" || a == "-p" || a == "--print":
		if len(args) < 2 {
			c.errf("%s: %s requires an argument\n", c.exe, a)
			return 9
		}
		return c.nodeCode(args[1], version)
	case strings.HasPrefix(a, "-"):
		if len(args) > 1 {
			return nodeJS(&call{ctx: c.ctx, p: c.p, argv: append([]string{c.argv[0]}, args[1:]...), exe: c.exe, std: c.std, env: c.env, dir: c.dir})
		}
		return 0
	}
	script := c.abs(args[0])
	if !c.p.m.fs.Exists(script) && !c.p.m.fs.Exists(script+".js") {
		c.errf("node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '%s'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15) {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}\n\nNode.js %s\n", script, version)
		return 1
	}
	code, _ := c.p.m.fs.ReadFile(script)
	if missing := c.missingRequire(string(code), path.Dir(script)); missing != "" {
		c.errf("Error: Cannot find module '%s'\n", missing)
		return 1
	}
	if c.p.service {
		return c.serves()
	}
	return 0
}

var (
	requireCall = regexp.MustCompile(`require\(\s*['"]([^'"]+)['"]\s*\)`)
	consoleLog  = regexp.MustCompile(`console\.log\(\s*(?:'([^']*)'|"([^"]*)"|(process\.version))\s*\)`)
	processExit = regexp.MustCompile(`process\.exit\(\s*(\d+)\s*\)`)
)

// nodeCode runs the parts of -e CODE the model understands: require of a missing module fails,
// console.log of a literal or process.version prints, process.exit(N) exits.
func (c *call) nodeCode(code, version string) int {
	if missing := c.missingRequire(code, c.dir); missing != "" {
		c.errf("node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '%s'\nRequire stack:\n- %s/[eval]\n", missing, c.dir)
		return 1
	}
	for _, m := range consoleLog.FindAllStringSubmatch(code, -1) {
		if m[3] != "" {
			c.out("%s\n", version)
			continue
		}
		c.out("%s%s\n", m[1], m[2])
	}
	if m := processExit.FindStringSubmatch(code); m != nil {
		return atoi(m[1])
	}
	return 0
}

// missingRequire is the first module code requires that resolution from dir does not find.
func (c *call) missingRequire(code, dir string) string {
	for _, m := range requireCall.FindAllStringSubmatch(code, -1) {
		name := strings.TrimPrefix(m[1], "node:")
		if slices.Contains(nodeBuiltins, strings.Split(name, "/")[0]) || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/") {
			continue
		}
		if !c.nodeModuleFound(name, dir) {
			return m[1]
		}
	}
	return ""
}

// nodeModuleFound looks name up in node_modules folders from dir to /, then NODE_PATH.
func (c *call) nodeModuleFound(name, dir string) bool {
	for d := dir; ; d = path.Dir(d) {
		if c.p.m.fs.Exists(path.Join(d, "node_modules", name)) {
			return true
		}
		if d == "/" {
			break
		}
	}
	for _, d := range strings.Split(c.env["NODE_PATH"], ":") {
		if d != "" && c.p.m.fs.Exists(path.Join(d, name)) {
			return true
		}
	}
	return false
}

// npmPrefix is where global packages go: /usr/local for the official images, /usr for the
// distributions' npm.
func (c *call) npmPrefix() string {
	if strings.HasPrefix(c.exe, "/usr/local/") {
		return "/usr/local"
	}
	return "/usr"
}

func npm(c *call) int {
	flags, args := options(c.argv[1:], "--prefix", "-C", "--registry", "--loglevel", "-w", "--workspace")
	if has(flags, "-v", "--version") {
		c.out("10.8.2\n")
		return 0
	}
	if len(args) == 0 {
		c.out("npm <command>\n")
		return 1
	}
	dir := c.dir
	if p := value(flags, "--prefix", "-C"); p != "" {
		dir = c.abs(p)
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "install", "i", "add", "isntall", "ci":
		global := has(flags, "-g", "--global", "--location=global")
		if cmd == "ci" && !c.p.m.fs.Exists(dir+"/package-lock.json") {
			c.errf("npm error code EUSAGE\nnpm error\nnpm error The `npm ci` command can only install with an existing package-lock.json or\nnpm error npm-shrinkwrap.json with lockfileVersion >= 1.\n")
			return 1
		}
		return c.npmInstall(dir, rest, global)
	case "run", "run-script", "start", "test", "t":
		script := cmd
		if cmd == "run" || cmd == "run-script" {
			if len(rest) == 0 {
				return 0
			}
			script = rest[0]
		}
		if script == "t" {
			script = "test"
		}
		return c.npmRun(dir, script)
	case "uninstall", "remove", "rm", "un":
		for _, p := range rest {
			_ = c.p.m.fs.Remove(path.Join(dir, "node_modules", p), true, c.p.cred)
		}
		return 0
	}
	return 0
}

// packageJSON reads dir/package.json: its dependencies and scripts.
type packageJSON struct {
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
	Scripts         map[string]string `json:"scripts"`
}

func (c *call) enoent(dir string) int {
	c.errf("npm error code ENOENT\nnpm error syscall open\nnpm error path %s/package.json\nnpm error errno -2\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '%s/package.json'\n", dir, dir)
	return 254
}

func (c *call) eacces(p string) int {
	c.errf("npm error code EACCES\nnpm error syscall mkdir\nnpm error path %s\nnpm error errno -13\nnpm error Error: EACCES: permission denied, mkdir '%s'\n", p, p)
	return 243
}

func (c *call) npmInstall(dir string, pkgs []string, global bool) int {
	m, cr := c.p.m, c.p.cred
	var names []string
	for _, p := range pkgs {
		if strings.HasPrefix(p, "-") {
			continue
		}
		if !npmName.MatchString(p) && !strings.Contains(p, "/") && !strings.Contains(p, ":") {
			c.errf("npm error code EINVALIDPACKAGENAME\nnpm error Invalid package name \"%s\"\n", p)
			return 1
		}
		names = append(names, p)
	}
	target := path.Join(dir, "node_modules")
	if global {
		target = c.npmPrefix() + "/lib/node_modules"
	} else if len(names) == 0 {
		data, err := m.fs.ReadFile(dir + "/package.json")
		if err != nil {
			return c.enoent(dir)
		}
		var pj packageJSON
		if err := json.Unmarshal(data, &pj); err != nil {
			c.errf("npm error code EJSONPARSE\nnpm error JSON.parse Invalid package.json: %v\n", err)
			return 1
		}
		for n := range pj.Dependencies {
			names = append(names, n)
		}
		for n := range pj.DevDependencies {
			names = append(names, n)
		}
		slices.Sort(names)
	}
	if !c.writable(target) {
		return c.eacces(target)
	}
	if _, err := m.fs.MkdirAll(target, 0o755, cr.uid, cr.gid, cr); err != nil {
		return c.eacces(target)
	}
	if !global && len(pkgs) > 0 && !m.fs.Exists(dir+"/package.json") {
		_ = m.fs.WriteFile(dir+"/package.json", []byte("{\n  \"dependencies\": {}\n}\n"), 0o644, cr)
	}
	for _, spec := range names {
		name := spec
		if i := strings.LastIndex(spec, "@"); i > 0 {
			name = spec[:i]
		}
		pkgDir := path.Join(target, name)
		if _, err := m.fs.MkdirAll(pkgDir, 0o755, cr.uid, cr.gid, cr); err != nil {
			return c.eacces(pkgDir)
		}
		_ = m.fs.WriteFile(pkgDir+"/package.json", []byte(`{"name": "`+name+`", "version": "1.0.0"}`+"\n"), 0o644, cr)
		if global {
			bin := c.npmPrefix() + "/bin"
			commands, ok := npmBins[name]
			if !ok {
				commands = []string{path.Base(name)}
			}
			for _, cmd := range commands {
				m.fs.Install(path.Join(bin, cmd), cmd)
			}
		}
	}
	c.out("\nadded %d packages in 1s\n", len(names))
	return 0
}

func (c *call) npmRun(dir, script string) int {
	data, err := c.p.m.fs.ReadFile(dir + "/package.json")
	if err != nil {
		return c.enoent(dir)
	}
	var pj packageJSON
	_ = json.Unmarshal(data, &pj)
	body, ok := pj.Scripts[script]
	if !ok && script == "start" && c.p.m.fs.Exists(dir+"/server.js") {
		body, ok = "node server.js", true
	}
	if !ok {
		c.errf("npm error Missing script: \"%s\"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n", script)
		return 1
	}
	env := map[string]string{}
	for k, v := range c.env {
		env[k] = v
	}
	env["PATH"] = dir + "/node_modules/.bin:" + env["PATH"]
	return c.p.runScript(c.ctx, body, "sh", nil, c.std, env, dir, "sh")
}

// npx runs a package's command: an installed one, else one npx would download (unmodelled).
func npx(c *call) int {
	_, args := options(c.argv[1:], "-p", "--package")
	if len(args) == 0 {
		return 0
	}
	for _, d := range []string{c.dir + "/node_modules/.bin", c.npmPrefix() + "/bin"} {
		if c.p.m.fs.Exists(path.Join(d, args[0])) {
			return c.sub(args, c.env, c.dir)
		}
	}
	return c.unmodelled()
}

// nodeEntrypoint is the node images' docker-entrypoint.sh: arguments that are no command are
// node's.
func nodeEntrypoint(c *call) int {
	args := c.argv[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		args = append([]string{"node"}, args...)
	} else if _, problem := c.p.lookPath(args[0], c.env, c.dir); problem != 0 {
		args = append([]string{"node"}, args...)
	}
	return c.sub(args, c.env, c.dir)
}
