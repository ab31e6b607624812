package sandboxos

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Models of Python and pip. What pip installs is a folder per package in the site-packages it
// chose (the interpreter's, the user's with --user or when the system's is not writable, a
// venv's), so `python -c "import x"` in a later command finds it, or not. Package indexes are
// not modelled: any well-formed requirement is taken to exist (Machine.Override makes one fail).

func init() {
	register(map[string]program{"python": python, "pip": pip})
}

// pythonDir is "python3.12" for version 3.12.x.
func pythonDir(version string) string {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return "python3"
	}
	return "python" + parts[0] + "." + parts[1]
}

// sitePackages is where the image's own Python installs packages system-wide: site-packages
// for a Python built into /usr/local (the official images), dist-packages for the distribution's.
func (m *Machine) sitePackages() string {
	if m.fs.Exists("/usr/local/bin/python3") || m.fs.Exists("/usr/local/bin/python") {
		return "/usr/local/lib/" + pythonDir(m.image.Python) + "/site-packages"
	}
	return "/usr/local/lib/" + pythonDir(m.image.Python) + "/dist-packages"
}

// venvOf is the virtual environment an interpreter at exe belongs to, or "".
func (m *Machine) venvOf(exe string) string {
	root := path.Dir(path.Dir(exe))
	if m.fs.Exists(root + "/pyvenv.cfg") {
		return root
	}
	return ""
}

// pythonSites are the folders the interpreter at exe imports from, for a process of u.
func (c *call) pythonSites(exe string) []string {
	m := c.p.m
	dir := pythonDir(m.image.Python)
	if venv := m.venvOf(exe); venv != "" {
		return []string{venv + "/lib/" + dir + "/site-packages"}
	}
	return []string{m.sitePackages(), "/usr/lib/python3/dist-packages", "/usr/lib/" + dir + "/site-packages",
		path.Join(c.p.user.Home, ".local/lib", dir, "site-packages")}
}

// stdlib are modules every Python has.
var stdlib = []string{"os", "sys", "json", "re", "math", "time", "datetime", "subprocess", "pathlib", "typing", "collections",
	"itertools", "functools", "io", "random", "string", "socket", "http", "urllib", "logging", "argparse", "asyncio", "venv",
	"ensurepip", "shutil", "tempfile", "threading", "multiprocessing", "sqlite3", "csv", "hashlib", "base64", "uuid", "site",
	"unittest", "dataclasses", "enum", "abc", "copy", "glob", "platform", "signal", "struct", "traceback", "warnings", "zipfile",
	"tarfile", "gzip", "pickle", "decimal", "fractions", "statistics", "textwrap", "contextlib", "inspect", "ast", "email",
	"html", "xml", "ssl", "select", "queue", "heapq", "bisect", "array", "weakref", "types", "operator", "pprint", "secrets",
	"getpass", "locale", "codecs", "unicodedata", "calendar", "configparser", "shlex", "ctypes", "importlib", "pkgutil", "pydoc",
	"timeit", "cProfile", "pdb", "zlib", "builtins", "__future__"}

// importNames are the modules packages install when the name differs from the package's.
var importNames = map[string]string{"scikit-learn": "sklearn", "pillow": "PIL", "beautifulsoup4": "bs4", "opencv-python": "cv2",
	"opencv-python-headless": "cv2", "python-dateutil": "dateutil", "pyyaml": "yaml", "python-dotenv": "dotenv",
	"protobuf": "google", "attrs": "attr", "pyjwt": "jwt", "typing-extensions": "typing_extensions", "msgpack-python": "msgpack",
	"psycopg2-binary": "psycopg2", "ipython": "IPython", "jupyterlab": "jupyterlab", "e2b-code-interpreter": "e2b_code_interpreter"}

// consoleScripts are the commands packages put in the scripts folder.
var consoleScripts = map[string][]string{"jupyter": {"jupyter"}, "jupyterlab": {"jupyter", "jupyter-lab"}, "notebook": {"jupyter", "jupyter-notebook"},
	"ipython": {"ipython"}, "flask": {"flask"}, "uvicorn": {"uvicorn"}, "gunicorn": {"gunicorn"}, "black": {"black"},
	"pytest": {"pytest"}, "httpie": {"http"}, "poetry": {"poetry"}, "uv": {"uv", "uvx"}, "ruff": {"ruff"}, "streamlit": {"streamlit"},
	"fastapi": {"fastapi"}, "django": {"django-admin"}, "celery": {"celery"}, "mypy": {"mypy"}, "pip": {"pip", "pip3"},
	"virtualenv": {"virtualenv"}, "awscli": {"aws"}, "gradio": {"gradio"}}

func normalize(name string) string {
	return strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(name))
}

// moduleInstalled tells whether `import name` finds a module.
func (c *call) moduleInstalled(exe, name string) bool {
	top, _, _ := strings.Cut(name, ".")
	if slices.Contains(stdlib, top) {
		return true
	}
	for _, site := range c.pythonSites(exe) {
		if c.p.m.fs.Exists(path.Join(site, top)) || c.p.m.fs.Exists(path.Join(site, top+".py")) {
			return true
		}
	}
	return false
}

// python runs -V, -c CODE, -m MODULE, a script file, or a script on stdin.
func python(c *call) int {
	args := c.argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) == 2 && strings.Contains("uBOIEsSqbd", args[0][1:]) {
		args = args[1:]
	}
	version := orDefault(c.p.m.image.Python, pythonVersions["3"])
	if len(args) == 0 {
		return c.pythonCode(strings.Join(splitLines(mustRead(c)), "\n"))
	}
	switch a := args[0]; {
	case a == "-V" || a == "--version":
		c.out("Python %s\n", version)
		return 0
	case a == "-c":
		if len(args) < 2 {
			c.errf("Argument expected for the -c option\n")
			return 2
		}
		return c.pythonCode(args[1])
	case a == "-m":
		if len(args) < 2 {
			c.errf("Argument expected for the -m option\n")
			return 2
		}
		return c.pythonModule(args[1], args[2:])
	case strings.HasPrefix(a, "-"):
		c.errf("unknown option %s\n", a)
		return 2
	}
	script := c.abs(args[0])
	code, err := c.p.m.fs.ReadFile(script)
	if err != nil {
		c.errf("%s: can't open file '%s': [Errno 2] No such file or directory\n", c.exe, script)
		return 2
	}
	if status := c.pythonImports(string(code), args[0]); status != 0 || !c.p.service {
		return status
	}
	return c.serves()
}

func mustRead(c *call) []byte {
	data, _ := c.input(nil, "python")
	return data
}

var (
	importStmt = regexp.MustCompile(`^\s*import\s+(.+)$`)
	fromStmt   = regexp.MustCompile(`^\s*from\s+([A-Za-z_][\w.]*)\s+import\s+`)
	printStmt  = regexp.MustCompile(`^\s*print\(\s*(?:'([^']*)'|"([^"]*)"|([A-Za-z_][\w.]*))\s*\)\s*$`)
	exitStmt   = regexp.MustCompile(`^\s*(?:sys\.exit|exit|quit|raise\s+SystemExit)\(\s*(\d*)\s*\)\s*$`)
	raiseStmt  = regexp.MustCompile(`^\s*raise\s+(\w+)`)
)

// pythonImports checks a script's imports, as running it would fail at the first missing one.
func (c *call) pythonImports(code, file string) int {
	for i, stmt := range pythonStatements(code) {
		if missing := c.missingImport(stmt); missing != "" {
			c.errf("Traceback (most recent call last):\n  File \"%s\", line %d, in <module>\nModuleNotFoundError: No module named '%s'\n", file, i+1, missing)
			return 1
		}
	}
	return 0
}

func pythonStatements(code string) []string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		out = append(out, strings.Split(line, ";")...)
	}
	return out
}

// missingImport is the first module an import statement names that is not installed, or "".
func (c *call) missingImport(stmt string) string {
	var names []string
	if m := importStmt.FindStringSubmatch(stmt); m != nil {
		for _, part := range strings.Split(m[1], ",") {
			name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
			names = append(names, name)
		}
	} else if m := fromStmt.FindStringSubmatch(stmt); m != nil {
		names = []string{m[1]}
	}
	for _, n := range names {
		if !c.moduleInstalled(c.exe, n) {
			top, _, _ := strings.Cut(n, ".")
			return top
		}
	}
	return ""
}

// pythonCode runs the statements of -c CODE the model understands: imports (a missing module
// fails as Python does), print of a literal or of sys.version / a module's __version__, exits and
// raises. Any other statement is taken to succeed without output.
func (c *call) pythonCode(code string) int {
	for _, stmt := range pythonStatements(code) {
		if missing := c.missingImport(stmt); missing != "" {
			c.errf("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named '%s'\n", missing)
			return 1
		}
		if m := printStmt.FindStringSubmatch(stmt); m != nil {
			switch {
			case m[3] == "sys.version":
				c.out("%s (main) [GCC 12.2.0]\n", c.p.m.image.Python)
			case strings.HasSuffix(m[3], ".__version__"):
				c.out("%s\n", c.installedVersion(strings.TrimSuffix(m[3], ".__version__")))
			case m[3] != "":
				c.out("%s\n", m[3])
			default:
				c.out("%s%s\n", m[1], m[2])
			}
		}
		if m := exitStmt.FindStringSubmatch(stmt); m != nil {
			if m[1] == "" {
				return 0
			}
			return atoi(m[1])
		}
		if m := raiseStmt.FindStringSubmatch(stmt); m != nil {
			c.errf("Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n%s\n", m[1])
			return 1
		}
	}
	return 0
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// installedVersion is the version pip recorded for the package providing module, or "1.0.0".
func (c *call) installedVersion(module string) string {
	for _, site := range c.pythonSites(c.exe) {
		data, err := c.p.m.fs.ReadFile(path.Join(site, module, "__version__"))
		if err == nil {
			return string(data)
		}
	}
	return "1.0.0"
}

// pythonModule is -m MODULE: pip, venv, http.server, or an installed module.
func (c *call) pythonModule(module string, args []string) int {
	switch module {
	case "pip":
		if !c.moduleInstalled(c.exe, "pip") && !c.p.m.fs.Exists(path.Dir(c.exe)+"/pip") && !c.p.m.fs.Exists(path.Dir(c.exe)+"/pip3") {
			c.errf("%s: No module named pip\n", c.exe)
			return 1
		}
		return pip(&call{ctx: c.ctx, p: c.p, argv: append([]string{"pip"}, args...), exe: c.exe, std: c.std, env: c.env, dir: c.dir})
	case "venv":
		return c.venv(args)
	case "http.server", "jupyter", "jupyterlab", "notebook", "uvicorn", "gunicorn", "flask", "streamlit":
		if !c.moduleInstalled(c.exe, module) {
			c.errf("%s: No module named %s\n", c.exe, module)
			return 1
		}
		return c.serves()
	case "ensurepip", "site", "compileall", "py_compile", "json.tool", "this":
		return 0
	}
	if !c.moduleInstalled(c.exe, module) {
		c.errf("%s: No module named %s\n", c.exe, module)
		return 1
	}
	if c.p.service {
		return c.serves()
	}
	return 0
}

// venv makes a virtual environment with its own python and pip.
func (c *call) venv(args []string) int {
	_, dirs := options(args, "--prompt")
	if len(dirs) == 0 {
		c.errf("usage: venv [-h] ENV_DIR [ENV_DIR ...]\nvenv: error: the following arguments are required: ENV_DIR\n")
		return 2
	}
	m := c.p.m
	for _, d := range dirs {
		dir := c.abs(d)
		if _, err := m.fs.MkdirAll(dir+"/bin", 0o755, c.p.cred.uid, c.p.cred.gid, c.p.cred); err != nil {
			c.errf("Error: [Errno 13] Permission denied: '%s'\n", dir)
			return 1
		}
		site := dir + "/lib/" + pythonDir(m.image.Python) + "/site-packages"
		_, _ = m.fs.MkdirAll(site+"/pip", 0o755, c.p.cred.uid, c.p.cred.gid, c.p.cred)
		_ = m.fs.WriteFile(dir+"/pyvenv.cfg", []byte("home = "+path.Dir(c.exe)+"\nversion = "+m.image.Python+"\n"), 0o644, c.p.cred)
		activate := "VIRTUAL_ENV=" + dir + "\nexport VIRTUAL_ENV\nPATH=\"$VIRTUAL_ENV/bin:$PATH\"\nexport PATH\n"
		_ = m.fs.WriteFile(dir+"/bin/activate", []byte(activate), 0o644, c.p.cred)
		for name, model := range map[string]string{"python": "python", "python3": "python", "pip": "pip", "pip3": "pip"} {
			m.fs.Install(dir+"/bin/"+name, model)
			_ = m.fs.Chown(dir+"/bin/"+name, c.p.cred.uid, c.p.cred.gid, root)
		}
	}
	return 0
}

var requirement = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?(\[[A-Za-z0-9,._ -]*\])?\s*(((===?|>=|<=|~=|!=|>|<)\s*[A-Za-z0-9.*+!_-]+)(\s*,\s*(===?|>=|<=|~=|!=|>|<)\s*[A-Za-z0-9.*+!_-]+)*)?\s*(;.*)?$`)

const externallyManaged = `error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try apt install
    python3-xyz, where xyz is the package you are trying to
    install.

    If you wish to install a non-Debian-packaged Python package,
    create a virtual environment using python3 -m venv path/to/venv.
    Then use path/to/venv/bin/python for the pip command.

note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
hint: See PEP 668 for the detailed specification.
`

// interpreter is the Python a pip at exe installs for: the python3 beside it, else the image's.
func (c *call) interpreter() string {
	for _, name := range []string{"python3", "python"} {
		if p := path.Join(path.Dir(c.exe), name); c.p.m.fs.Exists(p) {
			return p
		}
	}
	return c.exe
}

// pip models install, uninstall, list, freeze, show and --version.
func pip(c *call) int {
	flags, args := options(c.argv[1:], "-r", "--requirement", "-t", "--target", "-i", "--index-url", "--extra-index-url",
		"-c", "--constraint", "--root-user-action", "--prefix", "-e", "--editable", "--cache-dir", "--timeout", "--retries",
		"--progress-bar", "-f", "--find-links", "--trusted-host", "--python-version", "--platform", "--only-binary", "--no-binary")
	exe := c.interpreter()
	version := orDefault(c.p.m.image.Python, pythonVersions["3"])
	if has(flags, "-V", "--version") {
		c.out("pip 24.0 from %s/pip (python %s)\n", c.pythonSites(exe)[0], strings.TrimPrefix(pythonDir(version), "python"))
		return 0
	}
	if len(args) == 0 {
		c.errf("\nUsage:   \n  pip <command> [options]\n")
		return 0
	}
	cmd, pkgs := args[0], args[1:]
	switch cmd {
	case "install":
	case "uninstall":
		return c.pipUninstall(exe, pkgs)
	case "list", "freeze":
		return c.pipList(exe, cmd == "freeze")
	case "show":
		return c.pipShow(exe, pkgs)
	case "download", "wheel", "check", "config", "cache", "index", "inspect", "hash", "completion", "debug", "help", "search":
		return 0
	default:
		c.errf("ERROR: unknown command \"%s\"\n", cmd)
		return 1
	}
	for _, file := range flags["-r"] {
		pkgs = append(pkgs, c.requirementsFile(file)...)
	}
	for _, file := range flags["--requirement"] {
		pkgs = append(pkgs, c.requirementsFile(file)...)
	}
	if slices.Contains(pkgs, "\x00missing") {
		return 1
	}
	if len(pkgs) == 0 && !has(flags, "-e", "--editable") {
		c.errf("ERROR: You must give at least one requirement to install (see \"pip help install\")\n")
		return 1
	}
	m := c.p.m
	venv := m.venvOf(exe)
	user := has(flags, "--user")
	if user && venv != "" {
		c.errf("ERROR: Can not perform a '--user' install. User site-packages are not visible in this virtualenv.\n")
		return 1
	}
	breakSystem := has(flags, "--break-system-packages") || truthy(c.env["PIP_BREAK_SYSTEM_PACKAGES"])
	if venv == "" && !breakSystem && m.fs.Exists("/usr/lib/"+pythonDir(version)+"/EXTERNALLY-MANAGED") && !strings.HasPrefix(exe, "/usr/local/") {
		c.errf("%s", externallyManaged)
		return 1
	}
	site, bin := m.sitePackages(), "/usr/local/bin"
	switch {
	case venv != "":
		site, bin = c.pythonSites(exe)[0], venv+"/bin"
	case user || !c.writable(site):
		if !user {
			c.out("Defaulting to user installation because normal site-packages is not writeable\n")
		}
		site, bin = path.Join(c.p.user.Home, ".local/lib", pythonDir(version), "site-packages"), path.Join(c.p.user.Home, ".local/bin")
	}
	if t := value(flags, "-t", "--target"); t != "" {
		site, bin = c.abs(t), c.abs(t)+"/bin"
	}
	var installed []string
	for _, spec := range pkgs {
		name, pinned := parseRequirement(spec)
		if name == "" {
			c.errf("ERROR: Invalid requirement: '%s'\n", spec)
			return 1
		}
		c.out("Collecting %s\n", spec)
		if err := c.placePackage(site, bin, name, pinned); err != nil {
			c.errf("ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: '%s'\nConsider using the `--user` option or check the permissions.\n\n", site)
			return 1
		}
		installed = append(installed, name+"-"+pinned)
	}
	if len(installed) > 0 {
		c.out("Installing collected packages: %s\nSuccessfully installed %s\n", strings.Join(installed, ", "), strings.Join(installed, " "))
	}
	return 0
}

func truthy(v string) bool {
	v = strings.ToLower(v)
	return v == "1" || v == "true" || v == "yes" || v == "on"
}

// writable tells whether the process can create entries in dir (or in its nearest existing parent).
func (c *call) writable(dir string) bool {
	for d := dir; ; d = path.Dir(d) {
		if info, err := c.p.m.fs.Stat(d, true); err == nil {
			c.p.m.fs.mu.Lock()
			_, n := c.p.m.fs.lookup(d, true)
			ok := info.IsDir() && n.allows(c.p.cred, 0o2)
			c.p.m.fs.mu.Unlock()
			return ok
		}
		if d == "/" {
			return false
		}
	}
}

// parseRequirement is a requirement's package name and the version it pins ("1.0.0" unpinned).
func parseRequirement(spec string) (name, version string) {
	spec = strings.TrimSpace(spec)
	if strings.Contains(spec, "://") || strings.HasPrefix(spec, "git+") {
		base := path.Base(strings.TrimSuffix(strings.Split(spec, "#")[0], ".git"))
		return strings.TrimSuffix(strings.Split(base, "@")[0], ".whl"), "1.0.0"
	}
	if !requirement.MatchString(spec) {
		return "", ""
	}
	end := strings.IndexAny(spec, "[=<>~!; ")
	name, version = spec, "1.0.0"
	if end >= 0 {
		name = spec[:end]
	}
	if _, pin, ok := strings.Cut(spec, "=="); ok {
		version = strings.TrimSpace(strings.Split(pin, ",")[0])
	}
	return name, version
}

// placePackage writes a package's module folder, its metadata and its console scripts.
func (c *call) placePackage(site, bin, name, version string) error {
	m, cr := c.p.m, c.p.cred
	module := importNames[strings.ToLower(name)]
	if module == "" {
		module = normalize(name)
	}
	if _, err := m.fs.MkdirAll(path.Join(site, module), 0o755, cr.uid, cr.gid, cr); err != nil {
		return err
	}
	_ = m.fs.WriteFile(path.Join(site, module, "__init__.py"), nil, 0o644, cr)
	_ = m.fs.WriteFile(path.Join(site, module, "__version__"), []byte(version), 0o644, cr)
	dist := path.Join(site, normalize(name)+"-"+version+".dist-info")
	_, _ = m.fs.MkdirAll(dist, 0o755, cr.uid, cr.gid, cr)
	_ = m.fs.WriteFile(dist+"/METADATA", []byte("Name: "+name+"\nVersion: "+version+"\n"), 0o644, cr)
	for _, script := range consoleScripts[strings.ToLower(name)] {
		if _, err := m.fs.MkdirAll(bin, 0o755, cr.uid, cr.gid, cr); err == nil {
			m.fs.Install(path.Join(bin, script), script)
			_ = m.fs.Chown(path.Join(bin, script), cr.uid, cr.gid, root)
		}
	}
	return nil
}

// requirementsFile reads -r FILE; a missing file is pip's error (marked "\x00missing").
func (c *call) requirementsFile(file string) []string {
	data, err := c.p.m.fs.ReadFile(c.abs(file))
	if err != nil {
		c.errf("ERROR: Could not open requirements file: [Errno 2] No such file or directory: '%s'\n", file)
		return []string{"\x00missing"}
	}
	var out []string
	for _, line := range splitLines(data) {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "-") {
			out = append(out, line)
		}
	}
	return out
}

// installedPackages are the name-version pairs in the interpreter's sites.
func (c *call) installedPackages(exe string) [][2]string {
	var out [][2]string
	for _, site := range c.pythonSites(exe) {
		entries, _ := c.p.m.fs.ReadDir(site)
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".dist-info"); ok {
				i := strings.LastIndex(name, "-")
				out = append(out, [2]string{name[:i], name[i+1:]})
			}
		}
	}
	return out
}

func (c *call) pipList(exe string, freeze bool) int {
	for _, p := range c.installedPackages(exe) {
		if freeze {
			c.out("%s==%s\n", p[0], p[1])
		} else {
			c.out("%-20s %s\n", p[0], p[1])
		}
	}
	return 0
}

func (c *call) pipShow(exe string, names []string) int {
	status := 0
	for _, n := range names {
		found := false
		for _, p := range c.installedPackages(exe) {
			if p[0] == normalize(n) {
				c.out("Name: %s\nVersion: %s\n", n, p[1])
				found = true
			}
		}
		if !found {
			c.errf("WARNING: Package(s) not found: %s\n", n)
			status = 1
		}
	}
	return status
}

func (c *call) pipUninstall(exe string, names []string) int {
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			continue
		}
		for _, site := range c.pythonSites(exe) {
			for _, p := range c.installedPackages(exe) {
				if p[0] == normalize(n) {
					_ = c.p.m.fs.Remove(path.Join(site, p[0]+"-"+p[1]+".dist-info"), true, c.p.cred)
				}
			}
			module := importNames[strings.ToLower(n)]
			_ = c.p.m.fs.Remove(path.Join(site, orDefault(module, normalize(n))), true, c.p.cred)
		}
	}
	return 0
}
