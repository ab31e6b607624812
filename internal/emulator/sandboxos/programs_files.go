package sandboxos

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// Models of the file utilities (GNU coreutils; busybox prints the same on the paths modelled).

func init() {
	register(map[string]program{
		"cat": cat, "ls": ls, "mkdir": mkdir, "touch": touch, "rm": rm, "rmdir": rmdir, "cp": cp, "mv": mv,
		"chmod": chmod, "chown": chown, "chgrp": chown, "ln": ln, "tee": tee, "readlink": readlink, "realpath": readlink,
		"basename": basename, "dirname": dirname, "mktemp": mktemp,
	})
}

// reason is how coreutils words a filesystem error.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, errIsDir):
		return "Is a directory"
	case errors.Is(err, errNotDir):
		return "Not a directory"
	case errors.Is(err, errNotEmpty):
		return "Directory not empty"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		s := pe.Err.Error()
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return err.Error()
}

func cat(c *call) int {
	_, files := options(c.argv[1:])
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if f == "-" {
			_, _ = io.Copy(c.std.out, c.std.in)
			continue
		}
		r, err := c.p.m.fs.Open(c.abs(f), 0, 0, c.p.cred)
		if err != nil {
			c.errf("cat: %s: %s\n", f, reason(err))
			status = 1
			continue
		}
		_, _ = io.Copy(c.std.out, r)
	}
	return status
}

func ls(c *call) int {
	flags, paths := options(c.argv[1:])
	if len(paths) == 0 {
		paths = []string{"."}
	}
	all, long := has(flags, "-a", "-A", "--all"), has(flags, "-l")
	status := 0
	for _, p := range paths {
		info, err := c.p.m.fs.Stat(c.abs(p), true)
		if err != nil {
			c.errf("ls: cannot access '%s': %s\n", p, reason(err))
			status = 2
			continue
		}
		if !info.IsDir() || has(flags, "-d") {
			c.lsLine(p, info, long)
			continue
		}
		entries, err := c.p.m.fs.ReadDir(c.abs(p))
		if err != nil {
			c.errf("ls: cannot open directory '%s': %s\n", p, reason(err))
			status = 2
			continue
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") && !all {
				continue
			}
			info, _ := e.Info()
			c.lsLine(e.Name(), info, long)
		}
	}
	return status
}

func (c *call) lsLine(name string, info fs.FileInfo, long bool) {
	if !long {
		c.out("%s\n", name)
		return
	}
	o, _ := info.Sys().(owner)
	c.out("%s 1 %s %s %d Jan  1 00:00 %s\n", info.Mode().String(), c.p.m.userName(o.uid), c.p.m.groupName(o.gid), info.Size(), name)
}

func (m *Machine) userName(uid int) string {
	if u, ok := m.userByUID(uid); ok {
		return u.Name
	}
	return strconv.Itoa(uid)
}

func mkdir(c *call) int {
	flags, dirs := options(c.argv[1:], "-m", "--mode")
	mode := fs.FileMode(0o755)
	if m, err := strconv.ParseUint(value(flags, "-m", "--mode"), 8, 32); err == nil {
		mode = fs.FileMode(m)
	}
	if len(dirs) == 0 {
		c.errf("mkdir: missing operand\n")
		return 1
	}
	status := 0
	for _, d := range dirs {
		var err error
		if has(flags, "-p", "--parents") {
			_, err = c.p.m.fs.MkdirAll(c.abs(d), mode, c.p.cred.uid, c.p.cred.gid, c.p.cred)
		} else {
			err = c.p.m.fs.Mkdir(c.abs(d), mode, c.p.cred)
		}
		if err != nil {
			c.errf("mkdir: cannot create directory '%s': %s\n", d, reason(err))
			status = 1
		}
	}
	return status
}

func touch(c *call) int {
	_, files := options(c.argv[1:])
	status := 0
	for _, f := range files {
		if c.p.m.fs.Exists(c.abs(f)) {
			continue
		}
		if err := c.p.m.fs.WriteFile(c.abs(f), nil, 0o644, c.p.cred); err != nil {
			c.errf("touch: cannot touch '%s': %s\n", f, reason(err))
			status = 1
		}
	}
	return status
}

func rm(c *call) int {
	flags, files := options(c.argv[1:])
	force, recursive := has(flags, "-f", "--force"), has(flags, "-r", "-R", "--recursive")
	status := 0
	for _, f := range files {
		info, err := c.p.m.fs.Stat(c.abs(f), false)
		switch {
		case err != nil && force:
			continue
		case err != nil:
			c.errf("rm: cannot remove '%s': %s\n", f, reason(err))
			status = 1
			continue
		case info.IsDir() && !recursive:
			c.errf("rm: cannot remove '%s': Is a directory\n", f)
			status = 1
			continue
		}
		if err := c.p.m.fs.Remove(c.abs(f), recursive, c.p.cred); err != nil {
			c.errf("rm: cannot remove '%s': %s\n", f, reason(err))
			status = 1
		}
	}
	return status
}

func rmdir(c *call) int {
	_, dirs := options(c.argv[1:])
	status := 0
	for _, d := range dirs {
		if err := c.p.m.fs.Remove(c.abs(d), false, c.p.cred); err != nil {
			c.errf("rmdir: failed to remove '%s': %s\n", d, reason(err))
			status = 1
		}
	}
	return status
}

// target is where cp and mv put src given dst: into dst when it is a folder.
func (c *call) target(src, dst string) string {
	if c.p.m.fs.IsDir(c.abs(dst)) {
		return path.Join(c.abs(dst), path.Base(src))
	}
	return c.abs(dst)
}

func cp(c *call) int {
	flags, args := options(c.argv[1:])
	if len(args) < 2 {
		c.errf("cp: missing file operand\n")
		return 1
	}
	recursive := has(flags, "-r", "-R", "-a", "--recursive", "--archive")
	dst, status := args[len(args)-1], 0
	for _, src := range args[:len(args)-1] {
		if c.p.m.fs.IsDir(c.abs(src)) && !recursive {
			c.errf("cp: -r not specified; omitting directory '%s'\n", src)
			status = 1
			continue
		}
		if err := c.p.m.fs.Copy(c.abs(src), c.target(src, dst), recursive, c.p.cred); err != nil {
			c.errf("cp: cannot stat '%s': %s\n", src, reason(err))
			status = 1
		}
	}
	return status
}

func mv(c *call) int {
	_, args := options(c.argv[1:])
	if len(args) < 2 {
		c.errf("mv: missing file operand\n")
		return 1
	}
	dst, status := args[len(args)-1], 0
	for _, src := range args[:len(args)-1] {
		if err := c.p.m.fs.Rename(c.abs(src), c.target(src, dst), c.p.cred); err != nil {
			c.errf("mv: cannot move '%s': %s\n", src, reason(err))
			status = 1
		}
	}
	return status
}

func chmod(c *call) int {
	args := c.argv[1:]
	recursive := len(args) > 0 && (args[0] == "-R" || args[0] == "--recursive")
	if recursive {
		args = args[1:]
	}
	if len(args) < 2 {
		c.errf("chmod: missing operand\n")
		return 1
	}
	status := 0
	for _, f := range args[1:] {
		paths := []string{c.abs(f)}
		if recursive {
			paths = c.p.m.fs.Walk(c.abs(f))
		}
		if len(paths) == 0 || !c.p.m.fs.Exists(c.abs(f)) {
			c.errf("chmod: cannot access '%s': No such file or directory\n", f)
			status = 1
			continue
		}
		for _, p := range paths {
			info, err := c.p.m.fs.Stat(p, true)
			if err != nil {
				continue
			}
			mode, ok := parseMode(args[0], info.Mode().Perm())
			if !ok {
				c.errf("chmod: invalid mode: '%s'\n", args[0])
				return 1
			}
			if err := c.p.m.fs.Chmod(p, info.Mode()&fs.ModeSticky|mode, c.p.cred); err != nil {
				c.errf("chmod: changing permissions of '%s': Operation not permitted\n", f)
				status = 1
			}
		}
	}
	return status
}

// parseMode reads an octal mode or a symbolic one ([ugoa]*[+-=][rwxX]+, comma-separated).
func parseMode(spec string, cur fs.FileMode) (fs.FileMode, bool) {
	if n, err := strconv.ParseUint(spec, 8, 32); err == nil {
		return fs.FileMode(n) & 0o7777, true
	}
	mode := cur
	for _, clause := range strings.Split(spec, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 {
			return 0, false
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		if who == "" || strings.Contains(who, "a") {
			who = "ugo"
		}
		var bits fs.FileMode
		for _, p := range perms {
			switch p {
			case 'r':
				bits |= 0o4
			case 'w':
				bits |= 0o2
			case 'x', 'X':
				bits |= 0o1
			default:
				return 0, false
			}
		}
		var mask fs.FileMode
		for _, w := range who {
			shift := map[rune]uint{'u': 6, 'g': 3, 'o': 0}[w]
			mask |= bits << shift
			if op == '=' {
				mode &^= 0o7 << shift
			}
		}
		if op == '-' {
			mode &^= mask
		} else {
			mode |= mask
		}
	}
	return mode, true
}

func chown(c *call) int {
	args := c.argv[1:]
	recursive := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		recursive = recursive || args[0] == "-R" || args[0] == "--recursive"
		args = args[1:]
	}
	if len(args) < 2 {
		c.errf("%s: missing operand\n", c.name())
		return 1
	}
	spec := args[0]
	if c.name() == "chgrp" {
		spec = ":" + spec
	}
	userName, groupName, _ := strings.Cut(spec, ":")
	uid, gid := -1, -1
	if userName != "" {
		u, ok := c.p.m.LookupUser(userName)
		if !ok {
			c.errf("%s: invalid user: '%s'\n", c.name(), spec)
			return 1
		}
		uid = u.UID
		if strings.HasSuffix(spec, ":") {
			gid = u.GID
		}
	}
	if groupName != "" {
		g, ok := c.p.m.lookupGroup(groupName)
		if !ok {
			c.errf("%s: invalid group: '%s'\n", c.name(), spec)
			return 1
		}
		gid = g.gid
	}
	status := 0
	for _, f := range args[1:] {
		paths := []string{c.abs(f)}
		if recursive {
			paths = c.p.m.fs.Walk(c.abs(f))
		}
		if !c.p.m.fs.Exists(c.abs(f)) {
			c.errf("%s: cannot access '%s': No such file or directory\n", c.name(), f)
			status = 1
			continue
		}
		for _, p := range paths {
			if err := c.p.m.fs.Chown(p, uid, gid, c.p.cred); err != nil {
				c.errf("%s: changing ownership of '%s': Operation not permitted\n", c.name(), f)
				status = 1
				break
			}
		}
	}
	return status
}

func ln(c *call) int {
	flags, args := options(c.argv[1:])
	if len(args) < 2 || !has(flags, "-s", "--symbolic") {
		return 0 // hard links are not modelled: the link is taken to be made
	}
	target, link := args[0], args[1]
	dst := c.abs(link)
	if c.p.m.fs.IsDir(dst) && !has(flags, "-n", "-T") {
		dst = path.Join(dst, path.Base(target))
	}
	if has(flags, "-f", "--force") {
		_ = c.p.m.fs.Remove(dst, false, c.p.cred)
	}
	if err := c.p.m.fs.Symlink(target, dst, c.p.cred); err != nil {
		c.errf("ln: failed to create symbolic link '%s': %s\n", link, reason(err))
		return 1
	}
	return 0
}

func tee(c *call) int {
	flags, files := options(c.argv[1:])
	data, _ := io.ReadAll(c.std.in)
	_, _ = c.std.out.Write(data)
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if has(flags, "-a", "--append") {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	status := 0
	for _, f := range files {
		w, err := c.p.m.fs.Open(c.abs(f), flag, 0o644, c.p.cred)
		if err != nil {
			c.errf("tee: %s: %s\n", f, reason(err))
			status = 1
			continue
		}
		_, _ = w.Write(data)
	}
	return status
}

func readlink(c *call) int {
	_, args := options(c.argv[1:])
	status := 0
	for _, a := range args {
		c.p.m.fs.mu.Lock()
		r, err := c.p.m.fs.resolve(c.abs(a), true)
		c.p.m.fs.mu.Unlock()
		if err != nil || !c.p.m.fs.Exists(r) {
			status = 1
			continue
		}
		c.out("%s\n", r)
	}
	return status
}

func basename(c *call) int {
	_, args := options(c.argv[1:])
	if len(args) == 0 {
		c.errf("basename: missing operand\n")
		return 1
	}
	b := path.Base(args[0])
	if len(args) > 1 {
		b = strings.TrimSuffix(b, args[1])
	}
	c.out("%s\n", b)
	return 0
}

func dirname(c *call) int {
	_, args := options(c.argv[1:])
	if len(args) == 0 {
		c.errf("dirname: missing operand\n")
		return 1
	}
	for _, a := range args {
		c.out("%s\n", path.Dir(a))
	}
	return 0
}

func mktemp(c *call) int {
	flags, _ := options(c.argv[1:])
	for i := 0; ; i++ {
		p := "/tmp/tmp." + strconv.Itoa(100000+i)
		if c.p.m.fs.Exists(p) {
			continue
		}
		var err error
		if has(flags, "-d", "--directory") {
			err = c.p.m.fs.Mkdir(p, 0o700, c.p.cred)
		} else {
			err = c.p.m.fs.WriteFile(p, nil, 0o600, c.p.cred)
		}
		if err != nil {
			c.errf("mktemp: failed to create file via template '/tmp/tmp.XXXXXXXXXX': %s\n", reason(err))
			return 1
		}
		c.out("%s\n", p)
		return 0
	}
}
