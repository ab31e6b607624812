package sandboxos

import (
	"strings"
)

// Models of the distributions' package managers: apt-get and apt (Debian, Ubuntu), apk
// (Alpine). Official images ship without package indexes, so an install finds nothing before
// `apt-get update` (apk: `apk update`, or add --no-cache / --update); installing needs root.

func init() {
	register(map[string]program{"apt-get": aptGet, "apt": aptGet, "apk": apk, "dpkg": dpkgQuery, "dpkg-query": dpkgQuery})
}

const (
	aptListsMarker = "/var/lib/apt/lists/sandboxos-index"
	apkIndexMarker = "/var/cache/apk/sandboxos-index"
)

func aptGet(c *call) int {
	if c.name() == "apt" {
		c.errf("\nWARNING: apt does not have a stable CLI interface. Use with caution in scripts.\n\n")
	}
	flags, args := options(c.argv[1:], "-o", "-t", "-c", "--option", "--target-release")
	if len(args) == 0 {
		c.errf("E: No operation specified\n")
		return 100
	}
	op, pkgs := args[0], args[1:]
	switch op {
	case "update":
		if c.p.cred.uid != 0 {
			c.errf("E: Could not open lock file /var/lib/apt/lists/lock - open (13: Permission denied)\nE: Unable to lock directory /var/lib/apt/lists/\n")
			return 100
		}
		_ = c.p.m.WriteFile(aptListsMarker, nil, 0o644, "")
		c.out("Get:1 %s InRelease\nReading package lists...\n", aptMirror(c.p.m.image.Family))
		return 0
	case "install", "reinstall":
	case "remove", "purge", "autoremove", "upgrade", "dist-upgrade", "full-upgrade":
		if c.p.cred.uid != 0 {
			return c.dpkgLocked()
		}
		c.out("Reading package lists...\nBuilding dependency tree...\n0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n")
		return 0
	case "clean", "autoclean", "show", "policy", "search", "list", "-v", "--version":
		return 0
	default:
		c.errf("E: Invalid operation %s\n", op)
		return 100
	}
	if c.p.cred.uid != 0 {
		return c.dpkgLocked()
	}
	_ = flags
	c.out("Reading package lists...\nBuilding dependency tree...\nReading state information...\n")
	indexed := c.p.m.fs.Exists(aptListsMarker)
	var install []string
	for _, arg := range pkgs {
		name := packageName(arg)
		switch {
		case strings.HasSuffix(arg, ".deb") || strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "/"):
			if !c.p.m.fs.Exists(c.abs(arg)) {
				c.errf("E: Unsupported file %s given on commandline\n", arg)
				return 100
			}
		case !validPackageName.MatchString(name):
			c.errf("E: Unable to locate package %s\n", arg)
			return 100
		case c.p.m.packageInstalled(name):
			c.out("%s is already the newest version.\n", name)
		case !indexed:
			c.errf("E: Unable to locate package %s\n", arg)
			return 100
		default:
			install = append(install, name)
		}
	}
	for _, name := range install {
		c.p.m.installPackage(aptPackages, name)
		c.out("Setting up %s ...\n", name)
	}
	return 0
}

func (c *call) dpkgLocked() int {
	c.errf("E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)\n" +
		"E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?\n")
	return 100
}

func aptMirror(f Family) string {
	if f == Ubuntu {
		return "http://archive.ubuntu.com/ubuntu noble"
	}
	return "http://deb.debian.org/debian bookworm"
}

func apk(c *call) int {
	flags, args := options(c.argv[1:], "-X", "--repository", "-t", "--virtual", "-p", "--root")
	if has(flags, "-V", "--version") {
		c.out("apk-tools 2.14.4, compiled for x86_64.\n")
		return 0
	}
	if len(args) == 0 {
		c.errf("apk-tools 2.14.4, compiled for x86_64.\n\nusage: apk [<OPTIONS>...] COMMAND [<ARGUMENTS>...]\n")
		return 1
	}
	op, pkgs := args[0], args[1:]
	needsRoot := op == "add" || op == "del" || op == "update" || op == "upgrade" || op == "fix"
	if needsRoot && c.p.cred.uid != 0 {
		c.errf("ERROR: Unable to lock database: Permission denied\nERROR: Failed to open apk database: Permission denied\n")
		return 99
	}
	switch op {
	case "update":
		_ = c.p.m.WriteFile(apkIndexMarker, nil, 0o644, "")
		c.out("fetch https://dl-cdn.alpinelinux.org/alpine/v3.20/main/x86_64/APKINDEX.tar.gz\nOK: 24163 distinct packages available\n")
		return 0
	case "add":
	case "del", "upgrade", "fix", "info", "search", "cache", "version", "list", "policy", "stats":
		return 0
	default:
		c.errf("apk: applet not found\n")
		return 1
	}
	indexed := c.p.m.fs.Exists(apkIndexMarker) || has(flags, "--no-cache", "--update", "-U")
	var missing []string
	for _, arg := range pkgs {
		name := packageName(arg)
		if !validPackageName.MatchString(name) || (!indexed && !c.p.m.packageInstalled(name)) {
			missing = append(missing, arg)
		}
	}
	if len(missing) > 0 {
		c.errf("ERROR: unable to select packages:\n")
		for _, m := range missing {
			c.errf("  %s (no such package):\n    required by: world[%s]\n", m, m)
		}
		return len(missing)
	}
	for i, arg := range pkgs {
		name := packageName(arg)
		c.p.m.installPackage(apkPackages, name)
		c.out("(%d/%d) Installing %s\n", i+1, len(pkgs), name)
	}
	c.out("OK: 0 MiB in %d packages\n", len(pkgs))
	return 0
}

// dpkgQuery answers `dpkg -s PKG`, `dpkg -l PKG` and `dpkg-query -W PKG` from the packages
// installed; anything else succeeds.
func dpkgQuery(c *call) int {
	_, args := options(c.argv[1:], "-f", "--showformat")
	for _, pkg := range args {
		if !c.p.m.packageInstalled(packageName(pkg)) {
			c.errf("dpkg-query: package '%s' is not installed and no information is available\n", pkg)
			return 1
		}
		c.out("Package: %s\nStatus: install ok installed\n", pkg)
	}
	return 0
}

func packageMarker(name string) string { return "/var/lib/dpkg/info/" + name + ".list" }

func (m *Machine) packageInstalled(name string) bool { return m.fs.Exists(packageMarker(name)) }

// installPackage puts what pkg installs into the machine.
func (m *Machine) installPackage(table map[string]map[string]string, pkg string) {
	_ = m.WriteFile(packageMarker(pkg), nil, 0o644, "")
	for p, model := range packagePrograms(table, pkg) {
		if !m.fs.Exists(p) {
			m.fs.Install(p, model)
		}
		switch model {
		case "python":
			m.installDistributionPython()
		case "node":
			if m.image.Node == "" {
				m.image.Node = "v18.19.1" // Debian 12's and Ubuntu 24.04's nodejs
			}
		case "sudo":
			m.installSudoers()
		}
	}
}

// installDistributionPython is what the distribution's python3 package brings: Python 3.11 on
// Debian 12, 3.12 elsewhere, marked EXTERNALLY-MANAGED (PEP 668).
func (m *Machine) installDistributionPython() {
	if m.image.Python == "" {
		m.image.Python = pythonVersions["3.12"]
		if m.image.Family == Debian {
			m.image.Python = pythonVersions["3.11"]
		}
	}
	_ = m.WriteFile("/usr/lib/"+pythonDir(m.image.Python)+"/EXTERNALLY-MANAGED", []byte("[externally-managed]\n"), 0o644, "")
}

// installSudoers writes the sudo package's /etc/sudoers: root, and the admin group with a
// password (Debian's %sudo; Alpine ships %wheel commented out).
func (m *Machine) installSudoers() {
	if m.fs.Exists("/etc/sudoers") {
		return
	}
	rules := "root ALL=(ALL:ALL) ALL\n%sudo ALL=(ALL:ALL) ALL\n"
	if m.image.Family == Alpine {
		rules = "root ALL=(ALL:ALL) ALL\n# %wheel ALL=(ALL:ALL) ALL\n"
	}
	_ = m.WriteFile("/etc/sudoers", []byte(rules), 0o440, "")
}
