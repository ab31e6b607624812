package sandboxos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Users live where the image keeps them: /etc/passwd, /etc/group and /etc/sudoers (plus
// /etc/sudoers.d), so a command that edits them by hand is seen by the next one.

// User is one /etc/passwd line.
type User struct {
	Name       string
	UID, GID   int
	Home       string
	Shell      string
	PrimaryGrp string // the name of GID's group
}

func (u User) line() string {
	return fmt.Sprintf("%s:x:%d:%d::%s:%s", u.Name, u.UID, u.GID, u.Home, u.Shell)
}

// group is one /etc/group line.
type group struct {
	name    string
	gid     int
	members []string
}

func (g group) line() string {
	return fmt.Sprintf("%s:x:%d:%s", g.name, g.gid, strings.Join(g.members, ","))
}

// Users lists /etc/passwd.
func (m *Machine) Users() []User {
	data, _ := m.fs.ReadFile("/etc/passwd")
	var out []User
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 7 {
			continue
		}
		uid, err1 := strconv.Atoi(f[2])
		gid, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, User{Name: f[0], UID: uid, GID: gid, Home: f[5], Shell: f[6]})
	}
	return out
}

// LookupUser finds a user by name, or by uid when name is a number.
func (m *Machine) LookupUser(name string) (User, bool) {
	for _, u := range m.Users() {
		if u.Name == name || strconv.Itoa(u.UID) == name {
			u.PrimaryGrp = m.groupName(u.GID)
			return u, true
		}
	}
	return User{}, false
}

// userByUID finds the user with uid.
func (m *Machine) userByUID(uid int) (User, bool) {
	for _, u := range m.Users() {
		if u.UID == uid {
			u.PrimaryGrp = m.groupName(u.GID)
			return u, true
		}
	}
	return User{}, false
}

func (m *Machine) groups() []group {
	data, _ := m.fs.ReadFile("/etc/group")
	var out []group
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 4 {
			continue
		}
		gid, err := strconv.Atoi(f[2])
		if err != nil {
			continue
		}
		g := group{name: f[0], gid: gid}
		if f[3] != "" {
			g.members = strings.Split(f[3], ",")
		}
		out = append(out, g)
	}
	return out
}

// lookupGroup finds a group by name, or by gid when name is a number.
func (m *Machine) lookupGroup(name string) (group, bool) {
	for _, g := range m.groups() {
		if g.name == name || strconv.Itoa(g.gid) == name {
			return g, true
		}
	}
	return group{}, false
}

func (m *Machine) groupName(gid int) string {
	for _, g := range m.groups() {
		if g.gid == gid {
			return g.name
		}
	}
	return strconv.Itoa(gid)
}

// supplementary are the gids of the groups that list name as a member.
func (m *Machine) supplementary(name string) []int {
	var out []int
	for _, g := range m.groups() {
		if slices.Contains(g.members, name) {
			out = append(out, g.gid)
		}
	}
	return out
}

// credOf is who a process of u runs as.
func (m *Machine) credOf(u User) cred {
	return cred{uid: u.UID, gid: u.GID, groups: m.supplementary(u.Name)}
}

// addUser appends u to /etc/passwd (and a group of its name when it has none).
func (m *Machine) addUser(u User) {
	m.appendLine("/etc/passwd", u.line())
	if _, ok := m.lookupGroup(strconv.Itoa(u.GID)); !ok {
		m.appendLine("/etc/group", group{name: u.Name, gid: u.GID}.line())
	}
}

func (m *Machine) addGroup(g group) { m.appendLine("/etc/group", g.line()) }

// addToGroup adds user to group's member list.
func (m *Machine) addToGroup(user, name string) bool {
	groups := m.groups()
	found := false
	var lines []string
	for _, g := range groups {
		if g.name == name {
			found = true
			if !slices.Contains(g.members, user) {
				g.members = append(g.members, user)
			}
		}
		lines = append(lines, g.line())
	}
	if found {
		_ = m.fs.WriteFile("/etc/group", []byte(strings.Join(lines, "\n")+"\n"), 0o644, root)
	}
	return found
}

// rewriteUser replaces name's /etc/passwd line with u.
func (m *Machine) rewriteUser(name string, u User) {
	var lines []string
	for _, v := range m.Users() {
		if v.Name == name {
			v = u
		}
		lines = append(lines, v.line())
	}
	_ = m.fs.WriteFile("/etc/passwd", []byte(strings.Join(lines, "\n")+"\n"), 0o644, root)
}

func (m *Machine) appendLine(file, line string) {
	data, _ := m.fs.ReadFile(file)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(slices.Clip(data), '\n')
	}
	_ = m.fs.WriteFile(file, append(slices.Clip(data), []byte(line+"\n")...), 0o644, root)
}

// nextUID is the uid useradd gives a new user: one above the highest in 1000-59999, else 1000.
func (m *Machine) nextUID(system bool) int {
	lo, hi := 1000, 59999
	if system {
		lo, hi = 100, 999
	}
	next := lo
	for _, u := range m.Users() {
		if u.UID >= lo && u.UID <= hi && u.UID >= next {
			next = u.UID + 1
		}
	}
	return next
}

// sudoRule says how sudoers lets u run commands: nopasswd when a NOPASSWD rule names u or one
// of its groups, listed when any rule does (then sudo asks for a password).
func (m *Machine) sudoRule(u User) (listed, nopasswd bool) {
	var lines []string
	for _, file := range append([]string{"/etc/sudoers"}, m.fs.Walk("/etc/sudoers.d")...) {
		data, err := m.fs.ReadFile(file)
		if err == nil {
			lines = append(lines, strings.Split(string(data), "\n")...)
		}
	}
	names := []string{u.Name}
	for _, gid := range append([]int{u.GID}, m.supplementary(u.Name)...) {
		names = append(names, "%"+m.groupName(gid))
	}
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") || strings.HasPrefix(f[0], "Defaults") || !slices.Contains(names, f[0]) {
			continue
		}
		listed = true
		nopasswd = nopasswd || strings.Contains(line, "NOPASSWD:")
	}
	return listed, nopasswd
}

// validUserName is useradd's default NAME_REGEX on Debian.
func validUserName(name string) bool {
	if name == "" || len(name) > 32 {
		return false
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r == '_':
		case i > 0 && (r >= '0' && r <= '9' || r == '-'):
		default:
			return false
		}
	}
	return true
}

// HasGroup tells whether /etc/group has a group of that name (or gid).
func (m *Machine) HasGroup(name string) bool {
	_, ok := m.lookupGroup(name)
	return ok
}
