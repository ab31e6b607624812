package sandboxos

import (
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

// Machine is one sandbox (or one build's sandbox): its image, its root filesystem and what
// serves in it. Commands run in it through Run and Exec; what they change stays for the next.
type Machine struct {
	image Image
	fs    *FS
	// Systemd is set when systemd is the init (E2B's sandboxes): systemctl can start services.
	Systemd bool

	mu       sync.Mutex
	services []string // what has been started and keeps running
}

// Boot is a fresh container of img: its root filesystem as the image holds it.
func Boot(img Image) *Machine {
	m := &Machine{image: img.Clone(), fs: newFS()}
	f := m.fs
	for _, d := range []string{"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib",
		"/usr/local/share", "/usr/share", "/etc", "/home", "/opt", "/srv", "/mnt", "/media", "/var/lib", "/var/log",
		"/var/cache", "/var/tmp", "/var/spool", "/dev", "/proc", "/sys", "/run"} {
		_, _ = f.MkdirAll(d, 0o755, 0, 0, root)
	}
	if img.Family == Debian || img.Family == Ubuntu || img.Family == Distroless { // merged /usr
		for _, l := range []string{"bin", "sbin", "lib"} {
			_ = f.Symlink("usr/"+l, "/"+l, root)
		}
	} else {
		for _, d := range []string{"/bin", "/sbin", "/lib"} {
			_, _ = f.MkdirAll(d, 0o755, 0, 0, root)
		}
	}
	_, _ = f.MkdirAll("/root", 0o700, 0, 0, root)
	_, _ = f.MkdirAll("/tmp", 0o777, 0, 0, root)
	_ = f.Chmod("/tmp", fs.ModeSticky|0o777, root)
	for p, program := range img.Programs {
		f.Install(p, program)
	}
	for p, content := range img.Files {
		_, _ = f.MkdirAll(path.Dir(p), 0o755, 0, 0, root)
		_ = f.WriteFile(p, []byte(content), 0o644, root)
	}
	users, groups := familyUsers(img.Family)
	var passwd, groupLines []string
	for _, u := range append(users, img.Users...) {
		passwd = append(passwd, u.line())
		if !slices.ContainsFunc(groups, func(g group) bool { return g.gid == u.GID }) {
			groups = append(groups, group{name: u.Name, gid: u.GID})
		}
	}
	for _, g := range groups {
		groupLines = append(groupLines, g.line())
	}
	_ = f.WriteFile("/etc/passwd", []byte(strings.Join(passwd, "\n")+"\n"), 0o644, root)
	_ = f.WriteFile("/etc/group", []byte(strings.Join(groupLines, "\n")+"\n"), 0o644, root)
	_ = f.WriteFile("/etc/os-release", []byte("ID="+osRelease[img.Family]+"\n"), 0o644, root)
	for _, u := range img.Users {
		if strings.HasPrefix(u.Home, "/home/") {
			_, _ = f.MkdirAll(u.Home, 0o755, u.UID, u.GID, root)
		}
	}
	if img.Python != "" {
		_, _ = f.MkdirAll(m.sitePackages(), 0o755, 0, 0, root)
		if !img.ExternallyManaged { // the official images' Python comes with pip
			_, _ = f.MkdirAll(m.sitePackages()+"/pip", 0o755, 0, 0, root)
		} else {
			_ = f.WriteFile("/usr/lib/"+pythonDir(img.Python)+"/EXTERNALLY-MANAGED", []byte("[externally-managed]\n"), 0o644, root)
		}
	}
	if img.Node != "" {
		_, _ = f.MkdirAll("/usr/local/lib/node_modules", 0o755, 0, 0, root)
	}
	if img.Workdir != "" {
		_, _ = f.MkdirAll(img.Workdir, 0o755, 0, 0, root)
	}
	return m
}

func familyUsers(f Family) ([]User, []group) {
	switch f {
	case Alpine:
		return slices.Clone(alpineUsers), slices.Clone(alpineGroups)
	case Distroless:
		return slices.Clone(distrolessUsers), slices.Clone(distrolessGroups)
	}
	return slices.Clone(debianUsers), slices.Clone(debianGroups)
}

// Clone is a copy of m that shares nothing writable with it: a snapshot, a cached layer or a
// template's filesystem. What serves does not carry over (a snapshot holds no process).
func (m *Machine) Clone() *Machine {
	return &Machine{image: m.image.Clone(), fs: m.fs.Clone(), Systemd: m.Systemd}
}

// Image is the image m started from (with what was installed into it since: see Install).
func (m *Machine) Image() Image { return m.image.Clone() }

// FS is m's root filesystem.
func (m *Machine) FS() *FS { return m.fs }

// Serving lists what has been started in m and keeps running.
func (m *Machine) Serving() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.services)
}

func (m *Machine) serve(what string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.services = append(m.services, what)
}

// Env is the environment a process of u starts with: the image's, HOME, USER and LOGNAME of u,
// then extra.
func (m *Machine) Env(u User, extra map[string]string) map[string]string {
	env := maps.Clone(m.image.Env)
	if env == nil {
		env = map[string]string{}
	}
	if env["PATH"] == "" {
		env["PATH"] = defaultPath
	}
	env["HOME"], env["USER"], env["LOGNAME"] = u.Home, u.Name, u.Name
	maps.Copy(env, extra)
	return env
}

// MkdirAll makes dir and its missing parents owned by owner (a user or "user:group"), as a
// tool running as root does; it returns the folders it made.
func (m *Machine) MkdirAll(dir string, mode fs.FileMode, owner string) ([]string, error) {
	uid, gid := m.owner(owner)
	return m.fs.MkdirAll(dir, mode, uid, gid, root)
}

// WriteFile writes a file as root and gives it to owner ("" for root).
func (m *Machine) WriteFile(p string, data []byte, mode fs.FileMode, owner string) error {
	_, _ = m.fs.MkdirAll(path.Dir(p), 0o755, 0, 0, root)
	if err := m.fs.WriteFile(p, data, mode, root); err != nil {
		return err
	}
	_ = m.fs.Chmod(p, mode, root)
	uid, gid := m.owner(owner)
	return m.fs.Chown(p, uid, gid, root)
}

// owner is the ids of "user[:group]"; unknown names are root's.
func (m *Machine) owner(spec string) (uid, gid int) {
	name, grp, _ := strings.Cut(spec, ":")
	if u, ok := m.LookupUser(name); ok {
		uid, gid = u.UID, u.GID
	}
	if g, ok := m.lookupGroup(grp); ok && grp != "" {
		gid = g.gid
	}
	return uid, gid
}

// Install adds an executable running program at p (an image declaration, a package).
func (m *Machine) Install(p, program string) { m.fs.Install(p, program) }

// Snapshot is a Clone that keeps what serves: a memory snapshot, as E2B takes of a template once
// it is ready, resumes with its processes.
func (m *Machine) Snapshot() *Machine {
	c := m.Clone()
	c.services = m.Serving()
	return c
}
