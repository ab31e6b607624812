package sandboxos

import (
	"strconv"
	"strings"
)

// Models of the user database tools: shadow's useradd, usermod, groupadd, passwd; Debian's
// adduser; busybox's adduser and addgroup (Alpine); getent, id and whoami.

func init() {
	register(map[string]program{
		"useradd": useradd, "usermod": usermod, "groupadd": groupadd, "adduser": adduser, "addgroup": groupadd,
		"adduser-busybox": adduserBusybox, "addgroup-busybox": addgroupBusybox, "passwd": passwd, "chpasswd": rootOnly,
		"userdel": rootOnly, "deluser": rootOnly, "groupmod": rootOnly, "groupdel": rootOnly,
		"getent": getent, "id": id, "whoami": whoami,
	})
}

// lockedOut is what shadow's tools say to a user who cannot write /etc/passwd.
func (c *call) lockedOut() int {
	c.errf("%s: Permission denied.\n%s: cannot lock /etc/passwd; try again later.\n", c.name(), c.name())
	return 1
}

func rootOnly(c *call) int {
	if c.p.cred.uid != 0 {
		return c.lockedOut()
	}
	return 0
}

// newUser adds a user as useradd does: its own group (USERGROUPS_ENAB), the next free uid, the
// home folder only when asked for (Debian's login.defs has no CREATE_HOME).
func (c *call) newUser(name string, uid, gid int, home, shell string, createHome bool, groups []string) int {
	tool := c.name()
	if c.p.cred.uid != 0 {
		return c.lockedOut()
	}
	if !validUserName(name) {
		c.errf("%s: invalid user name '%s': use --badname to ignore\n", tool, name)
		return 3
	}
	if _, exists := c.p.m.LookupUser(name); exists {
		c.errf("%s: user '%s' already exists\n", tool, name)
		return 9
	}
	if _, taken := c.p.m.userByUID(uid); uid >= 0 && taken {
		c.errf("%s: UID %d is not unique\n", tool, uid)
		return 4
	}
	for _, g := range groups {
		if _, ok := c.p.m.lookupGroup(g); !ok {
			c.errf("%s: group '%s' does not exist\n", tool, g)
			return 6
		}
	}
	if uid < 0 {
		uid = c.p.m.nextUID(false)
	}
	if gid < 0 {
		gid = uid
		if _, ok := c.p.m.lookupGroup(name); ok {
			c.errf("%s: group %s exists - if you want to add this user to that group, use -g.\n", tool, name)
			return 9
		}
		if _, taken := c.p.m.lookupGroup(strconv.Itoa(gid)); taken {
			gid = c.p.m.nextGID()
		}
		c.p.m.addGroup(group{name: name, gid: gid})
	}
	u := User{Name: name, UID: uid, GID: gid, Home: orDefault(home, "/home/"+name), Shell: shell}
	c.p.m.addUser(u)
	for _, g := range groups {
		c.p.m.addToGroup(name, g)
	}
	if createHome && !c.p.m.fs.Exists(u.Home) {
		_, _ = c.p.m.fs.MkdirAll(u.Home, 0o755, uid, gid, root)
		_ = c.p.m.fs.Chown(u.Home, uid, gid, root)
	}
	return 0
}

func (m *Machine) nextGID() int {
	next := 1000
	for _, g := range m.groups() {
		if g.gid >= next && g.gid < 60000 {
			next = g.gid + 1
		}
	}
	return next
}

func useradd(c *call) int {
	flags, args := options(c.argv[1:], "-s", "--shell", "-u", "--uid", "-g", "--gid", "-G", "--groups", "-d", "--home-dir",
		"--home", "-c", "--comment", "-e", "-f", "-k", "-K", "-p", "--password", "-b", "--base-dir")
	if len(args) != 1 {
		c.errf("Usage: useradd [options] LOGIN\n")
		return 2
	}
	uid, gid := -1, -1
	if v := value(flags, "-u", "--uid"); v != "" {
		uid, _ = strconv.Atoi(v)
	}
	if v := value(flags, "-g", "--gid"); v != "" {
		g, ok := c.p.m.lookupGroup(v)
		if !ok {
			c.errf("useradd: group '%s' does not exist\n", v)
			return 6
		}
		gid = g.gid
	}
	var groups []string
	if v := value(flags, "-G", "--groups"); v != "" {
		groups = strings.Split(v, ",")
	}
	shell := orDefault(value(flags, "-s", "--shell"), "/bin/sh")
	create := has(flags, "-m", "--create-home") && !has(flags, "-M", "--no-create-home")
	return c.newUser(args[0], uid, gid, value(flags, "-d", "--home-dir", "--home"), shell, create, groups)
}

// adduser is Debian's: a home folder and /bin/bash; `adduser USER GROUP` adds to a group.
func adduser(c *call) int {
	flags, args := options(c.argv[1:], "--shell", "--uid", "--gid", "--home", "--ingroup", "--gecos", "--comment")
	switch len(args) {
	case 1:
	case 2:
		if c.p.cred.uid != 0 {
			c.errf("adduser: Only root may add a user or group to the system.\n")
			return 1
		}
		if !c.p.m.addToGroup(args[0], args[1]) {
			c.errf("adduser: The group `%s' does not exist.\n", args[1])
			return 1
		}
		return 0
	default:
		c.errf("adduser: Only one or two names allowed.\n")
		return 1
	}
	if c.p.cred.uid != 0 {
		c.errf("adduser: Only root may add a user or group to the system.\n")
		return 1
	}
	if _, exists := c.p.m.LookupUser(args[0]); exists {
		c.errf("adduser: The user `%s' already exists.\n", args[0])
		return 1
	}
	uid, gid := -1, -1
	if v := value(flags, "--uid"); v != "" {
		uid, _ = strconv.Atoi(v)
	}
	if v := value(flags, "--ingroup", "--gid"); v != "" {
		if g, ok := c.p.m.lookupGroup(v); ok {
			gid = g.gid
		}
	}
	shell := orDefault(value(flags, "--shell"), "/bin/bash")
	return c.newUser(args[0], uid, gid, value(flags, "--home"), shell, !has(flags, "--no-create-home"), nil)
}

// adduserBusybox is Alpine's: -D (no password) is needed without a terminal.
func adduserBusybox(c *call) int {
	flags, args := options(c.argv[1:], "-s", "-h", "-u", "-G", "-g", "-k")
	if len(args) == 2 {
		if c.p.cred.uid != 0 {
			c.errf("adduser: permission denied (are you root?)\n")
			return 1
		}
		if !c.p.m.addToGroup(args[0], args[1]) {
			c.errf("adduser: unknown group %s\n", args[1])
			return 1
		}
		return 0
	}
	if len(args) != 1 {
		c.errf("BusyBox v1.36.1 multi-call binary.\n\nUsage: adduser [OPTIONS] USER [GROUP]\n")
		return 1
	}
	if c.p.cred.uid != 0 {
		c.errf("adduser: permission denied (are you root?)\n")
		return 1
	}
	if _, exists := c.p.m.LookupUser(args[0]); exists {
		c.errf("adduser: user '%s' in use\n", args[0])
		return 1
	}
	uid, gid := -1, -1
	if v := value(flags, "-u"); v != "" {
		uid, _ = strconv.Atoi(v)
	}
	if v := value(flags, "-G"); v != "" {
		g, ok := c.p.m.lookupGroup(v)
		if !ok {
			c.errf("adduser: unknown group %s\n", v)
			return 1
		}
		gid = g.gid
	}
	code := c.newUser(args[0], uid, gid, value(flags, "-h"), orDefault(value(flags, "-s"), "/bin/sh"), !has(flags, "-H"), nil)
	if code == 0 && !has(flags, "-D") {
		c.errf("passwd: password for %s is unchanged\n", args[0]) // no terminal to read one from
		return 1
	}
	return code
}

func addgroupBusybox(c *call) int {
	flags, args := options(c.argv[1:], "-g")
	if len(args) == 2 {
		return adduserBusybox(&call{ctx: c.ctx, p: c.p, argv: append([]string{"adduser"}, args...), std: c.std, env: c.env, dir: c.dir})
	}
	if len(args) != 1 {
		c.errf("Usage: addgroup [-g GID] [-S] [USER] GROUP\n")
		return 1
	}
	return c.newGroup(args[0], value(flags, "-g"))
}

func groupadd(c *call) int {
	flags, args := options(c.argv[1:], "-g", "--gid", "-K")
	if len(args) != 1 {
		c.errf("Usage: groupadd [options] GROUP\n")
		return 2
	}
	if _, ok := c.p.m.lookupGroup(args[0]); ok && has(flags, "-f", "--force") {
		return 0
	}
	return c.newGroup(args[0], value(flags, "-g", "--gid"))
}

func (c *call) newGroup(name, gidText string) int {
	if c.p.cred.uid != 0 {
		return c.lockedOut()
	}
	if _, ok := c.p.m.lookupGroup(name); ok {
		c.errf("%s: group '%s' already exists\n", c.name(), name)
		return 9
	}
	gid := c.p.m.nextGID()
	if gidText != "" {
		gid, _ = strconv.Atoi(gidText)
	}
	c.p.m.addGroup(group{name: name, gid: gid})
	return 0
}

func usermod(c *call) int {
	flags, args := options(c.argv[1:], "-G", "--groups", "-s", "--shell", "-d", "--home", "-g", "--gid", "-u", "--uid", "-l", "-c")
	if len(args) != 1 {
		c.errf("Usage: usermod [options] LOGIN\n")
		return 2
	}
	if c.p.cred.uid != 0 {
		return c.lockedOut()
	}
	u, ok := c.p.m.LookupUser(args[0])
	if !ok {
		c.errf("usermod: user '%s' does not exist\n", args[0])
		return 6
	}
	if v := value(flags, "-G", "--groups"); v != "" {
		for _, g := range strings.Split(v, ",") {
			if !c.p.m.addToGroup(u.Name, g) {
				c.errf("usermod: group '%s' does not exist\n", g)
				return 6
			}
		}
	}
	if v := value(flags, "-s", "--shell"); v != "" {
		u.Shell = v
	}
	if v := value(flags, "-d", "--home"); v != "" {
		u.Home = v
	}
	c.p.m.rewriteUser(args[0], u)
	return 0
}

func passwd(c *call) int {
	flags, args := options(c.argv[1:])
	if c.p.cred.uid != 0 && len(args) > 0 && args[0] != c.p.user.Name {
		c.errf("passwd: You may not view or modify password information for %s.\n", args[0])
		return 1
	}
	if len(args) > 0 {
		if _, ok := c.p.m.LookupUser(args[0]); !ok {
			c.errf("passwd: user '%s' does not exist\n", args[0])
			return 1
		}
	}
	if has(flags, "-d", "--delete", "-l", "--lock", "-u", "--unlock", "-S", "--status") {
		return 0
	}
	c.errf("passwd: Authentication token manipulation error\npasswd: password unchanged\n") // no terminal
	return 10
}

// getent prints passwd and group entries; 2 when a key is not found.
func getent(c *call) int {
	args := c.argv[1:]
	if len(args) == 0 {
		c.errf("Usage: getent [OPTION...] database [key ...]\n")
		return 1
	}
	var lines func() []string
	var find func(key string) (string, bool)
	switch args[0] {
	case "passwd":
		lines = func() (out []string) {
			for _, u := range c.p.m.Users() {
				out = append(out, u.line())
			}
			return out
		}
		find = func(key string) (string, bool) {
			u, ok := c.p.m.LookupUser(key)
			return u.line(), ok
		}
	case "group":
		lines = func() (out []string) {
			for _, g := range c.p.m.groups() {
				out = append(out, g.line())
			}
			return out
		}
		find = func(key string) (string, bool) {
			g, ok := c.p.m.lookupGroup(key)
			return g.line(), ok
		}
	default:
		c.errf("Unknown database: %s\nTry `getent --help' or `getent --usage' for more information.\n", args[0])
		return 1
	}
	if len(args) == 1 {
		for _, l := range lines() {
			c.out("%s\n", l)
		}
		return 0
	}
	status := 0
	for _, key := range args[1:] {
		line, ok := find(key)
		if !ok {
			status = 2
			continue
		}
		c.out("%s\n", line)
	}
	return status
}

func id(c *call) int {
	flags, args := options(c.argv[1:])
	u := c.p.user
	if len(args) > 0 {
		found, ok := c.p.m.LookupUser(args[0])
		if !ok {
			c.errf("id: '%s': no such user\n", args[0])
			return 1
		}
		u = found
	}
	name := has(flags, "-n", "--name")
	switch {
	case has(flags, "-u", "--user") && name:
		c.out("%s\n", u.Name)
	case has(flags, "-u", "--user"):
		c.out("%d\n", u.UID)
	case has(flags, "-g", "--group") && name:
		c.out("%s\n", c.p.m.groupName(u.GID))
	case has(flags, "-g", "--group"):
		c.out("%d\n", u.GID)
	case has(flags, "-G", "--groups"):
		ids := []string{strconv.Itoa(u.GID)}
		for _, g := range c.p.m.supplementary(u.Name) {
			ids = append(ids, strconv.Itoa(g))
		}
		c.out("%s\n", strings.Join(ids, " "))
	default:
		groups := []string{strconv.Itoa(u.GID) + "(" + c.p.m.groupName(u.GID) + ")"}
		for _, g := range c.p.m.supplementary(u.Name) {
			groups = append(groups, strconv.Itoa(g)+"("+c.p.m.groupName(g)+")")
		}
		c.out("uid=%d(%s) gid=%d(%s) groups=%s\n", u.UID, u.Name, u.GID, c.p.m.groupName(u.GID), strings.Join(groups, ","))
	}
	return 0
}

func whoami(c *call) int {
	if _, ok := c.p.m.userByUID(c.p.user.UID); !ok {
		c.errf("whoami: cannot find name for user ID %d\n", c.p.user.UID)
		return 1
	}
	c.out("%s\n", c.p.user.Name)
	return 0
}
