package sandboxos

import (
	"path"
	"regexp"
	"strings"
)

// What installing a distribution package puts on the PATH. A package the tables do not list is
// taken to exist and to install a program of its own name in /usr/bin, unless its name says it is
// a library, headers, documentation or data (lib*, *-dev, *-doc, *-data, *-common, fonts-*).

var aptPackages = map[string]map[string]string{
	"python3":                    {"/usr/bin/python3": "python"},
	"python3-minimal":            {"/usr/bin/python3": "python"},
	"python3-full":               {"/usr/bin/python3": "python"},
	"python3-pip":                {"/usr/bin/pip3": "pip", "/usr/bin/pip": "pip", "/usr/bin/python3": "python"},
	"python-is-python3":          {"/usr/bin/python": "python"},
	"python3-venv":               {},
	"nodejs":                     {"/usr/bin/node": "node", "/usr/bin/nodejs": "node"},
	"npm":                        {"/usr/bin/npm": "npm", "/usr/bin/npx": "npx", "/usr/bin/node": "node"},
	"build-essential":            bins("/usr/bin", "gcc", "g++", "make", "cc", "c++"),
	"sudo":                       {"/usr/bin/sudo": "sudo"},
	"openssh-client":             bins("/usr/bin", "ssh", "scp", "ssh-keygen"),
	"openssh-server":             bins("/usr/sbin", "sshd"),
	"procps":                     bins("/usr/bin", "ps", "top", "pkill", "pgrep", "free"),
	"iproute2":                   bins("/usr/bin", "ip", "ss"),
	"iputils-ping":               bins("/usr/bin", "ping"),
	"net-tools":                  bins("/usr/sbin", "netstat", "ifconfig"),
	"dnsutils":                   bins("/usr/bin", "dig", "nslookup"),
	"bind9-dnsutils":             bins("/usr/bin", "dig", "nslookup"),
	"netcat-openbsd":             bins("/usr/bin", "nc"),
	"default-jdk":                bins("/usr/bin", "java", "javac"),
	"default-jre":                bins("/usr/bin", "java"),
	"openjdk-17-jdk":             bins("/usr/bin", "java", "javac"),
	"imagemagick":                bins("/usr/bin", "convert", "identify"),
	"postgresql-client":          bins("/usr/bin", "psql", "pg_dump"),
	"redis-tools":                bins("/usr/bin", "redis-cli"),
	"xz-utils":                   bins("/usr/bin", "xz"),
	"gnupg":                      bins("/usr/bin", "gpg"),
	"systemd":                    bins("/usr/bin", "systemctl", "journalctl"),
	"golang-go":                  bins("/usr/bin", "go", "gofmt"),
	"golang":                     bins("/usr/bin", "go", "gofmt"),
	"ruby":                       bins("/usr/bin", "ruby", "gem"),
	"r-base":                     bins("/usr/bin", "R", "Rscript"),
	"vim":                        bins("/usr/bin", "vim", "vi"),
	"software-properties-common": bins("/usr/bin", "add-apt-repository"),
	"lsb-release":                bins("/usr/bin", "lsb_release"),
	"chromium":                   bins("/usr/bin", "chromium"),
	"passwd":                     bins("/usr/sbin", "useradd", "usermod", "groupadd"),
	"adduser":                    bins("/usr/sbin", "adduser", "addgroup"),
}

var apkPackages = map[string]map[string]string{
	"bash":            {"/bin/bash": "bash"},
	"python3":         {"/usr/bin/python3": "python"},
	"py3-pip":         {"/usr/bin/pip": "pip", "/usr/bin/pip3": "pip", "/usr/bin/python3": "python"},
	"nodejs":          {"/usr/bin/node": "node"},
	"npm":             {"/usr/bin/npm": "npm", "/usr/bin/npx": "npx", "/usr/bin/node": "node"},
	"build-base":      bins("/usr/bin", "gcc", "g++", "make", "cc", "c++"),
	"shadow":          bins("/usr/sbin", "useradd", "usermod", "groupadd", "userdel", "groupdel", "chpasswd"),
	"sudo":            {"/usr/bin/sudo": "sudo"},
	"openssh":         bins("/usr/bin", "ssh", "scp", "ssh-keygen"),
	"openssh-client":  bins("/usr/bin", "ssh", "scp", "ssh-keygen"),
	"procps":          bins("/bin", "ps", "top", "pkill", "pgrep"),
	"iproute2":        bins("/sbin", "ip", "ss"),
	"go":              bins("/usr/bin", "go", "gofmt"),
	"openjdk17":       bins("/usr/bin", "java", "javac"),
	"coreutils":       {},
	"util-linux-misc": bins("/usr/bin", "ionice"),
}

var noProgram = regexp.MustCompile(`^(lib.*|.*-(dev|doc|data|common|headers)|fonts-.*|ca-certificates|tzdata|locales.*|python3-venv|coreutils)$`)

// validPackageName is a Debian or Alpine package name (with an optional =version, apt, or
// version constraint, apk).
var validPackageName = regexp.MustCompile(`^[a-z0-9][a-z0-9+._-]*$`)

// packagePrograms is what installing pkg from table puts on the PATH.
func packagePrograms(table map[string]map[string]string, pkg string) map[string]string {
	if programs, ok := table[pkg]; ok {
		return programs
	}
	if noProgram.MatchString(pkg) {
		return nil
	}
	return map[string]string{path.Join("/usr/bin", pkg): pkg}
}

// packageName strips an apt "=version" or "/release", or an apk version constraint.
func packageName(arg string) string {
	if i := strings.IndexAny(arg, "=<>~/"); i > 0 {
		return arg[:i]
	}
	return arg
}
