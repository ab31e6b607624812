package sandboxos

import (
	"maps"
	"path"
	"slices"
)

// Family is a distribution family: it decides the package manager, the user tools and the users
// an image starts with.
type Family string

const (
	Debian     Family = "debian"
	Ubuntu     Family = "ubuntu"
	Alpine     Family = "alpine"
	Distroless Family = "distroless" // no shell, no package manager (gcr.io/distroless)
)

// Families are the families an image can be declared as.
var Families = []Family{Debian, Ubuntu, Alpine, Distroless}

// Image is what a container image holds that a command can depend on.
type Image struct {
	Ref    string
	Family Family
	// Programs maps an absolute path to the program model it runs (programs.go); a model the
	// engine does not have runs as an unmodelled program (see Machine.Run).
	Programs map[string]string
	// Files are other files it holds (scripts, configuration), by absolute path.
	Files map[string]string
	// Users are its /etc/passwd beyond the family's own.
	Users      []User
	User       string // USER: "" is root
	Workdir    string // WORKDIR: "" is /
	Entrypoint []string
	Cmd        []string
	Env        map[string]string // ENV, PATH included
	// Python is the version of the image's Python, if it has one; ExternallyManaged marks a
	// distribution's Python that refuses pip outside a venv (PEP 668: Debian 12+, Ubuntu 23.04+,
	// Alpine 3.19+).
	Python            string
	ExternallyManaged bool
	Node              string // the version node --version prints
	// Assumed is set when the emulator cannot know the image and assumed its contents (a
	// private registry's repository); Assumption says what it assumed.
	Assumed    bool
	Assumption string
}

// Clone copies img's maps, so a caller can add to them.
func (img Image) Clone() Image {
	img.Programs, img.Files, img.Env = maps.Clone(img.Programs), maps.Clone(img.Files), maps.Clone(img.Env)
	img.Users = slices.Clone(img.Users)
	return img
}

const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// bins maps dir/name to name for each name: a program model of the same name.
func bins(dir string, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		out[path.Join(dir, n)] = n
	}
	return out
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

// coreutils and the other programs of every Debian and Ubuntu root filesystem (essential
// packages: coreutils, bash, dash, grep, sed, findutils, tar, gzip, debianutils, passwd,
// login, libc-bin, apt, dpkg, util-linux, hostname, mawk).
var debianPrograms = merge(
	bins("/usr/bin", "bash", "cat", "ls", "mkdir", "touch", "rm", "cp", "mv", "chmod", "chown", "chgrp", "ln", "env",
		"id", "whoami", "sleep", "tail", "head", "echo", "true", "false", "test", "[", "printf", "basename", "dirname",
		"mktemp", "tee", "wc", "sort", "uname", "date", "pwd", "readlink", "realpath", "printenv", "grep", "sed",
		"find", "xargs", "tar", "gzip", "which", "getent", "su", "passwd", "apt-get", "apt", "apt-cache", "dpkg",
		"dpkg-query", "uniq", "cut", "tr", "rmdir", "stat", "du", "df", "hostname", "nproc", "yes", "seq", "expr",
		"md5sum", "sha256sum", "cmp", "diff", "chroot", "nohup", "timeout", "mount", "more", "kill",
		"debconf-set-selections"), // debconf is Priority: required, in every Debian and Ubuntu image
	map[string]string{"/usr/bin/sh": "sh", "/usr/bin/awk": "awk", "/usr/bin/mawk": "awk"},
	bins("/usr/sbin", "useradd", "usermod", "userdel", "groupadd", "groupmod", "groupdel", "chpasswd", "adduser",
		"addgroup", "deluser"),
)

// alpinePrograms: busybox's applets, apk and musl's getent.
var alpinePrograms = merge(
	bins("/bin", "sh", "ash", "cat", "ls", "mkdir", "touch", "rm", "cp", "mv", "chmod", "chown", "chgrp", "ln",
		"echo", "true", "false", "sleep", "date", "pwd", "grep", "sed", "tar", "gzip", "uname", "hostname", "su",
		"mktemp", "printenv", "kill", "mount", "stat", "df", "rmdir", "sync"),
	bins("/usr/bin", "env", "id", "whoami", "tail", "head", "test", "[", "printf", "basename", "dirname", "tee", "wc",
		"sort", "readlink", "realpath", "find", "xargs", "which", "getent", "passwd", "uniq", "cut", "tr", "du",
		"nproc", "yes", "seq", "expr", "md5sum", "sha256sum", "cmp", "diff", "nohup", "timeout", "wget", "awk", "less"),
	map[string]string{"/usr/sbin/adduser": "adduser-busybox", "/usr/sbin/addgroup": "addgroup-busybox", "/usr/sbin/deluser": "deluser",
		"/usr/sbin/chroot": "chroot", "/sbin/apk": "apk"},
)

// Users every family ships (base-passwd on Debian and Ubuntu; alpine-baselayout on Alpine;
// distroless's base image).
var (
	debianUsers = []User{
		{Name: "root", UID: 0, GID: 0, Home: "/root", Shell: "/bin/bash"},
		{Name: "daemon", UID: 1, GID: 1, Home: "/usr/sbin", Shell: "/usr/sbin/nologin"},
		{Name: "bin", UID: 2, GID: 2, Home: "/bin", Shell: "/usr/sbin/nologin"},
		{Name: "sys", UID: 3, GID: 3, Home: "/dev", Shell: "/usr/sbin/nologin"},
		{Name: "sync", UID: 4, GID: 65534, Home: "/bin", Shell: "/bin/sync"},
		{Name: "games", UID: 5, GID: 60, Home: "/usr/games", Shell: "/usr/sbin/nologin"},
		{Name: "man", UID: 6, GID: 12, Home: "/var/cache/man", Shell: "/usr/sbin/nologin"},
		{Name: "lp", UID: 7, GID: 7, Home: "/var/spool/lpd", Shell: "/usr/sbin/nologin"},
		{Name: "mail", UID: 8, GID: 8, Home: "/var/mail", Shell: "/usr/sbin/nologin"},
		{Name: "news", UID: 9, GID: 9, Home: "/var/spool/news", Shell: "/usr/sbin/nologin"},
		{Name: "uucp", UID: 10, GID: 10, Home: "/var/spool/uucp", Shell: "/usr/sbin/nologin"},
		{Name: "proxy", UID: 13, GID: 13, Home: "/bin", Shell: "/usr/sbin/nologin"},
		{Name: "www-data", UID: 33, GID: 33, Home: "/var/www", Shell: "/usr/sbin/nologin"},
		{Name: "backup", UID: 34, GID: 34, Home: "/var/backups", Shell: "/usr/sbin/nologin"},
		{Name: "list", UID: 38, GID: 38, Home: "/var/list", Shell: "/usr/sbin/nologin"},
		{Name: "irc", UID: 39, GID: 39, Home: "/run/ircd", Shell: "/usr/sbin/nologin"},
		{Name: "_apt", UID: 42, GID: 65534, Home: "/nonexistent", Shell: "/usr/sbin/nologin"},
		{Name: "nobody", UID: 65534, GID: 65534, Home: "/nonexistent", Shell: "/usr/sbin/nologin"},
	}
	debianGroups = []group{{name: "root"}, {name: "daemon", gid: 1}, {name: "bin", gid: 2}, {name: "sys", gid: 3},
		{name: "adm", gid: 4}, {name: "tty", gid: 5}, {name: "disk", gid: 6}, {name: "lp", gid: 7}, {name: "mail", gid: 8},
		{name: "news", gid: 9}, {name: "uucp", gid: 10}, {name: "man", gid: 12}, {name: "proxy", gid: 13},
		{name: "kmem", gid: 15}, {name: "dialout", gid: 20}, {name: "cdrom", gid: 24}, {name: "sudo", gid: 27},
		{name: "audio", gid: 29}, {name: "www-data", gid: 33}, {name: "backup", gid: 34}, {name: "operator", gid: 37},
		{name: "list", gid: 38}, {name: "irc", gid: 39}, {name: "staff", gid: 50}, {name: "games", gid: 60},
		{name: "users", gid: 100}, {name: "nogroup", gid: 65534}}
	alpineUsers = []User{
		{Name: "root", UID: 0, GID: 0, Home: "/root", Shell: "/bin/sh"},
		{Name: "bin", UID: 1, GID: 1, Home: "/bin", Shell: "/sbin/nologin"},
		{Name: "daemon", UID: 2, GID: 2, Home: "/sbin", Shell: "/sbin/nologin"},
		{Name: "lp", UID: 4, GID: 7, Home: "/var/spool/lpd", Shell: "/sbin/nologin"},
		{Name: "sync", UID: 5, GID: 0, Home: "/sbin", Shell: "/bin/sync"},
		{Name: "mail", UID: 8, GID: 12, Home: "/var/mail", Shell: "/sbin/nologin"},
		{Name: "operator", UID: 11, GID: 0, Home: "/root", Shell: "/sbin/nologin"},
		{Name: "guest", UID: 405, GID: 100, Home: "/dev/null", Shell: "/sbin/nologin"},
		{Name: "nobody", UID: 65534, GID: 65534, Home: "/", Shell: "/sbin/nologin"},
	}
	alpineGroups = []group{{name: "root"}, {name: "bin", gid: 1}, {name: "daemon", gid: 2}, {name: "sys", gid: 3},
		{name: "adm", gid: 4}, {name: "tty", gid: 5}, {name: "disk", gid: 6}, {name: "lp", gid: 7}, {name: "kmem", gid: 9},
		{name: "wheel", gid: 10}, {name: "mail", gid: 12}, {name: "users", gid: 100}, {name: "nogroup", gid: 65533},
		{name: "nobody", gid: 65534}}
	distrolessUsers = []User{
		{Name: "root", UID: 0, GID: 0, Home: "/root", Shell: "/sbin/nologin"},
		{Name: "nobody", UID: 65534, GID: 65534, Home: "/nonexistent", Shell: "/sbin/nologin"},
		{Name: "nonroot", UID: 65532, GID: 65532, Home: "/home/nonroot", Shell: "/sbin/nologin"},
	}
	distrolessGroups = []group{{name: "root"}, {name: "tty", gid: 5}, {name: "staff", gid: 50},
		{name: "nonroot", gid: 65532}, {name: "nogroup", gid: 65534}}
)

// osRelease is /etc/os-release's ID for each family (E2B provisions by it: distro.go).
var osRelease = map[Family]string{Debian: "debian", Ubuntu: "ubuntu", Alpine: "alpine", Distroless: "debian"}

// familyImage is a bare image of family: what debian:12, ubuntu:24.04, alpine:3.20 or a
// distroless static image hold.
func familyImage(f Family) Image {
	img := Image{Family: f, Env: map[string]string{"PATH": defaultPath}, Files: map[string]string{}}
	switch f {
	case Debian, Ubuntu:
		img.Programs = maps.Clone(debianPrograms)
		if f == Ubuntu { // ubuntu:24.04 ships a login user (uid 1000) and no adduser
			img.Users = []User{{Name: "ubuntu", UID: 1000, GID: 1000, Home: "/home/ubuntu", Shell: "/bin/bash"}}
			delete(img.Programs, "/usr/sbin/adduser")
			delete(img.Programs, "/usr/sbin/addgroup")
		}
	case Alpine:
		img.Programs = maps.Clone(alpinePrograms)
		img.Env["PATH"] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	case Distroless:
		img.Programs = map[string]string{}
	}
	return img
}
