package opensandboxemu

import (
	"fmt"
	"maps"
	"path"
	"strings"
)

// sandboxFS is what the emulator knows of a sandbox's filesystem beyond its image's programs: the
// folders that exist (execd refuses a command whose cwd does not: runtime/workingdir.go
// ValidateWorkingDir) and the users in /etc/passwd (execd looks owners up by name:
// controller/utils.go SetFileOwnership; useradd adds them). A snapshot keeps it, as it keeps the
// root filesystem.
type sandboxFS struct {
	dirs  map[string]bool
	users map[string]passwdEntry
}

// passwdEntry is one /etc/passwd line.
type passwdEntry struct {
	uid, gid    uint32
	home, shell string
}

// baseDirs are the folders of every image the emulator knows (a Debian or Ubuntu root filesystem).
var baseDirs = []string{"/", "/bin", "/etc", "/home", "/opt", "/root", "/srv", "/tmp", "/usr", "/usr/bin", "/usr/local",
	"/usr/local/bin", "/usr/local/lib", "/usr/share", "/var", "/var/tmp"}

func newSandboxFS() *sandboxFS {
	fs := &sandboxFS{dirs: map[string]bool{}, users: map[string]passwdEntry{"root": {home: "/root", shell: "/bin/bash"}}}
	for _, d := range baseDirs {
		fs.dirs[d] = true
	}
	return fs
}

func (fs *sandboxFS) clone() *sandboxFS {
	return &sandboxFS{dirs: maps.Clone(fs.dirs), users: maps.Clone(fs.users)}
}

// mkdirAll records dir and its parents (os.MkdirAll); it tells whether dir was new.
func (fs *sandboxFS) mkdirAll(dir string) bool {
	dir = path.Clean("/" + dir)
	created := !fs.dirs[dir]
	for d := dir; !fs.dirs[d]; d = path.Dir(d) {
		fs.dirs[d] = true
	}
	return created
}

// ownerProblem is execd's error for an owner or group it cannot look up, or "".
func (fs *sandboxFS) ownerProblem(owner, group string) string {
	if _, ok := fs.users[owner]; owner != "" && !ok {
		return fmt.Sprintf("failed to lookup user %s: user: unknown user %s", owner, owner)
	}
	if _, ok := fs.users[group]; group != "" && !ok { // useradd makes each user a group of its name
		return fmt.Sprintf("failed to lookup group %s: group: unknown group %s", group, group)
	}
	return ""
}

// userCommand answers the user-database commands the emulator models, as root runs them:
// `getent passwd NAME` (exit 2 for an unknown name) and `useradd [--create-home] [--shell S] NAME`
// (the next uid and gid from 1000; the home folder when asked for). ok is false for any other command.
func (fs *sandboxFS) userCommand(command string) (result CommandResult, ok bool) {
	words := strings.Fields(command)
	switch {
	case len(words) == 3 && words[0] == "getent" && words[1] == "passwd":
		u, found := fs.users[words[2]]
		if !found {
			return CommandResult{ExitCode: 2}, true
		}
		return CommandResult{Stdout: []string{fmt.Sprintf("%s:x:%d:%d::%s:%s", words[2], u.uid, u.gid, u.home, u.shell)}}, true
	case len(words) >= 2 && words[0] == "useradd":
		name := words[len(words)-1]
		if _, exists := fs.users[name]; exists {
			return CommandResult{ExitCode: 9, Stderr: []string{fmt.Sprintf("useradd: user '%s' already exists", name)}}, true
		}
		id := uint32(1000 + len(fs.users) - 1)
		u := passwdEntry{uid: id, gid: id, home: "/home/" + name, shell: "/bin/sh"}
		for i, w := range words {
			if w == "--shell" && i+1 < len(words) {
				u.shell = words[i+1]
			}
		}
		if strings.Contains(command, "--create-home") {
			fs.mkdirAll(u.home)
		}
		fs.users[name] = u
		return CommandResult{}, true
	}
	return CommandResult{}, false
}
