package sandboxos

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// FS is a sandbox's root filesystem: folders, files, symlinks, their owners and modes. An
// executable file either names the program model it runs (program, see programs.go) or holds a
// script the shell runs. It is safe for concurrent use: a pipeline's programs run at once.
type FS struct {
	mu    sync.Mutex
	nodes map[string]*node
}

type node struct {
	mode     fs.FileMode // type bits and permissions
	uid, gid int
	data     []byte // a file's content; never written in place, so clones share it
	link     string // a symlink's target
	program  string // the program model an executable runs, "" for a script or data
}

// cred is who a process runs as: permission checks pass for root.
type cred struct {
	uid, gid int
	groups   []int
}

var root = cred{}

func newFS() *FS {
	return &FS{nodes: map[string]*node{"/": {mode: fs.ModeDir | 0o755}}}
}

// Clone is a copy that shares nothing writable with f: a snapshot or a template's filesystem.
func (f *FS) Clone() *FS {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := &FS{nodes: make(map[string]*node, len(f.nodes))}
	for p, n := range f.nodes {
		c := *n
		out.nodes[p] = &c
	}
	return out
}

// clean makes p absolute and clean; a relative p is taken from dir.
func clean(dir, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = dir + "/" + p
	}
	return path.Clean("/" + p)
}

// resolve follows symlinks in every component of p (at most 40, as Linux does); the last
// component is followed only with follow. Callers hold mu.
func (f *FS) resolve(p string, follow bool) (string, error) {
	parts := strings.Split(strings.TrimPrefix(path.Clean(p), "/"), "/")
	cur := "/"
	for hops, i := 0, 0; i < len(parts); i++ {
		if parts[i] == "" {
			continue
		}
		next := path.Join(cur, parts[i])
		n := f.nodes[next]
		if n != nil && n.mode&fs.ModeSymlink != 0 && (follow || i < len(parts)-1) {
			if hops++; hops > 40 {
				return "", &fs.PathError{Op: "stat", Path: p, Err: errors.New("too many levels of symbolic links")}
			}
			target := n.link
			if !strings.HasPrefix(target, "/") {
				target = path.Join(cur, target)
			}
			rest := append(strings.Split(strings.TrimPrefix(path.Clean(target), "/"), "/"), parts[i+1:]...)
			parts, i, cur = rest, -1, "/"
			continue
		}
		cur = next
	}
	return cur, nil
}

// lookup is the node at p (symlinks followed as resolve does), or nil. Callers hold mu.
func (f *FS) lookup(p string, follow bool) (string, *node) {
	r, err := f.resolve(p, follow)
	if err != nil {
		return p, nil
	}
	return r, f.nodes[r]
}

// Stat describes p, following a final symlink when follow is set.
func (f *FS) Stat(p string, follow bool) (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, n := f.lookup(p, follow)
	if n == nil {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
	}
	return fileInfo{name: path.Base(r), n: *n}, nil
}

// Exists tells whether p exists (following symlinks).
func (f *FS) Exists(p string) bool {
	_, err := f.Stat(p, true)
	return err == nil
}

// IsDir tells whether p is a folder (following symlinks).
func (f *FS) IsDir(p string) bool {
	info, err := f.Stat(p, true)
	return err == nil && info.IsDir()
}

// ReadFile is p's content.
func (f *FS) ReadFile(p string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.lookup(p, true)
	switch {
	case n == nil:
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case n.mode.IsDir():
		return nil, &fs.PathError{Op: "read", Path: p, Err: errIsDir}
	}
	return n.data, nil
}

var (
	errIsDir    = errors.New("is a directory")
	errNotDir   = errors.New("not a directory")
	errNotEmpty = errors.New("directory not empty")
)

// ReadDir lists a folder, sorted by name.
func (f *FS) ReadDir(p string) ([]fs.DirEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, n := f.lookup(p, true)
	switch {
	case n == nil:
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case !n.mode.IsDir():
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: errNotDir}
	}
	var out []fs.DirEntry
	for _, child := range f.children(r) {
		out = append(out, fs.FileInfoToDirEntry(fileInfo{name: path.Base(child), n: *f.nodes[child]}))
	}
	return out, nil
}

// children are the direct entries of folder dir, sorted. Callers hold mu.
func (f *FS) children(dir string) []string {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	var out []string
	for p := range f.nodes {
		if p != "/" && strings.HasPrefix(p, prefix) && !strings.Contains(p[len(prefix):], "/") {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// parentFor is the existing folder p would be created in, checked for c's write access.
// Callers hold mu.
func (f *FS) parentFor(p string, c cred, op string) (string, error) {
	dir, n := f.lookup(path.Dir(p), true)
	switch {
	case n == nil:
		return "", &fs.PathError{Op: op, Path: p, Err: fs.ErrNotExist}
	case !n.mode.IsDir():
		return "", &fs.PathError{Op: op, Path: p, Err: errNotDir}
	case !n.allows(c, 0o2):
		return "", &fs.PathError{Op: op, Path: p, Err: fs.ErrPermission}
	}
	return path.Join(dir, path.Base(p)), nil
}

// allows tells whether c may access n for want (0o4 read, 0o2 write, 0o1 execute).
func (n *node) allows(c cred, want fs.FileMode) bool {
	perm := n.mode.Perm()
	switch {
	case c.uid == 0:
		return want&0o1 == 0 || n.mode.IsDir() || perm&0o111 != 0
	case c.uid == n.uid:
		return perm>>6&want == want
	case c.gid == n.gid || slices.Contains(c.groups, n.gid):
		return perm>>3&want == want
	}
	return perm&want == want
}

// MkdirAll makes p and its missing parents with mode, owned by uid and gid, checking c's right
// to create each; it returns the folders it made, outermost first.
func (f *FS) MkdirAll(p string, mode fs.FileMode, uid, gid int, c cred) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p = path.Clean(p)
	var missing []string
	for d := p; ; d = path.Dir(d) {
		r, n := f.lookup(d, true)
		if n != nil {
			if !n.mode.IsDir() {
				return nil, &fs.PathError{Op: "mkdir", Path: r, Err: errNotDir}
			}
			break
		}
		missing = append(missing, d)
	}
	slices.Reverse(missing)
	for i, d := range missing {
		target, err := f.parentFor(d, c, "mkdir")
		if err != nil {
			return missing[:i], err
		}
		f.nodes[target] = &node{mode: fs.ModeDir | mode.Perm(), uid: uid, gid: gid}
	}
	return missing, nil
}

// Mkdir makes one folder whose parent exists.
func (f *FS) Mkdir(p string, mode fs.FileMode, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, n := f.lookup(p, false); n != nil {
		return &fs.PathError{Op: "mkdir", Path: p, Err: fs.ErrExist}
	}
	target, err := f.parentFor(p, c, "mkdir")
	if err != nil {
		return err
	}
	f.nodes[target] = &node{mode: fs.ModeDir | mode.Perm(), uid: c.uid, gid: c.gid}
	return nil
}

// WriteFile replaces (or creates) p with data; a new file gets mode and c's ids. program, when
// set, makes it an executable that runs that program model.
func (f *FS) WriteFile(p string, data []byte, mode fs.FileMode, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.write(p, data, mode, c, false)
	return err
}

// write is WriteFile (or an append) under mu; it returns the node written.
func (f *FS) write(p string, data []byte, mode fs.FileMode, c cred, appendTo bool) (*node, error) {
	r, n := f.lookup(p, true)
	if n != nil {
		switch {
		case n.mode.IsDir():
			return nil, &fs.PathError{Op: "open", Path: p, Err: errIsDir}
		case !n.allows(c, 0o2):
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
		}
		if appendTo {
			data = append(slices.Clip(n.data), data...)
		}
		n.data, n.program = data, ""
		return n, nil
	}
	target, err := f.parentFor(r, c, "open")
	if err != nil {
		return nil, err
	}
	n = &node{mode: mode.Perm(), uid: c.uid, gid: c.gid, data: data}
	f.nodes[target] = n
	return n, nil
}

// Install places an executable at p that runs program, owned by root, making its folder.
func (f *FS) Install(p, program string) {
	_, _ = f.MkdirAll(path.Dir(p), 0o755, 0, 0, root)
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, _ := f.lookup(path.Dir(p), true)
	f.nodes[path.Join(dir, path.Base(p))] = &node{mode: 0o755, program: program}
}

// Symlink makes p point at target.
func (f *FS) Symlink(target, p string, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, n := f.lookup(p, false); n != nil {
		return &fs.PathError{Op: "symlink", Path: p, Err: fs.ErrExist}
	}
	dest, err := f.parentFor(p, c, "symlink")
	if err != nil {
		return err
	}
	f.nodes[dest] = &node{mode: fs.ModeSymlink | 0o777, uid: c.uid, gid: c.gid, link: target}
	return nil
}

// Remove deletes p (a folder only when empty, or with everything in it when recursive).
func (f *FS) Remove(p string, recursive bool, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	dir, _ := f.lookup(path.Dir(p), true)
	r := path.Join(dir, path.Base(p))
	n := f.nodes[r]
	switch {
	case n == nil:
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrNotExist}
	case r == "/":
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrPermission}
	case !f.nodes[dir].allows(c, 0o2):
		return &fs.PathError{Op: "remove", Path: p, Err: fs.ErrPermission}
	case n.mode.IsDir() && !recursive && len(f.children(r)) > 0:
		return &fs.PathError{Op: "remove", Path: p, Err: errNotEmpty}
	}
	for q := range f.nodes {
		if q == r || strings.HasPrefix(q, r+"/") {
			delete(f.nodes, q)
		}
	}
	return nil
}

// Rename moves src (and what is under it) to dst.
func (f *FS) Rename(src, dst string, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, n := f.lookup(src, false)
	if n == nil {
		return &fs.PathError{Op: "rename", Path: src, Err: fs.ErrNotExist}
	}
	if _, err := f.parentFor(s, c, "rename"); err != nil {
		return err
	}
	d, err := f.parentFor(dst, c, "rename")
	if err != nil {
		return err
	}
	moved := map[string]*node{}
	for q, qn := range f.nodes {
		if q == s || strings.HasPrefix(q, s+"/") {
			moved[d+strings.TrimPrefix(q, s)] = qn
			delete(f.nodes, q)
		}
	}
	maps.Copy(f.nodes, moved)
	return nil
}

// Copy copies src to dst (a folder with what is under it when recursive), owned by c.
func (f *FS) Copy(src, dst string, recursive bool, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, n := f.lookup(src, true)
	switch {
	case n == nil:
		return &fs.PathError{Op: "stat", Path: src, Err: fs.ErrNotExist}
	case n.mode.IsDir() && !recursive:
		return &fs.PathError{Op: "copy", Path: src, Err: errIsDir}
	case !n.allows(c, 0o4):
		return &fs.PathError{Op: "open", Path: src, Err: fs.ErrPermission}
	}
	d, err := f.parentFor(dst, c, "open")
	if err != nil {
		return err
	}
	for q, qn := range maps.Clone(f.nodes) {
		if q == s || strings.HasPrefix(q, s+"/") {
			cp := *qn
			cp.uid, cp.gid = c.uid, c.gid
			f.nodes[d+strings.TrimPrefix(q, s)] = &cp
		}
	}
	return nil
}

// Chmod sets p's permission bits; only its owner or root may.
func (f *FS) Chmod(p string, mode fs.FileMode, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.lookup(p, true)
	switch {
	case n == nil:
		return &fs.PathError{Op: "chmod", Path: p, Err: fs.ErrNotExist}
	case c.uid != 0 && c.uid != n.uid:
		return &fs.PathError{Op: "chmod", Path: p, Err: errors.New("operation not permitted")}
	}
	n.mode = n.mode.Type() | mode.Perm()
	return nil
}

// Chown sets p's owner and group (-1 keeps one); only root may.
func (f *FS) Chown(p string, uid, gid int, c cred) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.lookup(p, true)
	switch {
	case n == nil:
		return &fs.PathError{Op: "chown", Path: p, Err: fs.ErrNotExist}
	case c.uid != 0:
		return &fs.PathError{Op: "chown", Path: p, Err: errors.New("operation not permitted")}
	}
	if uid >= 0 {
		n.uid = uid
	}
	if gid >= 0 {
		n.gid = gid
	}
	return nil
}

// Walk lists p and everything under it, sorted.
func (f *FS) Walk(p string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, _ := f.lookup(p, true)
	var out []string
	for q := range f.nodes {
		if q == r || strings.HasPrefix(q, strings.TrimSuffix(r, "/")+"/") {
			out = append(out, q)
		}
	}
	slices.Sort(out)
	return out
}

// executable is what running p does: the program model it names, or its script; ok is false
// when p is no file c may execute.
func (f *FS) executable(p string, c cred) (program string, script []byte, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, n := f.lookup(p, true)
	switch {
	case n == nil:
		return "", nil, fs.ErrNotExist
	case n.mode.IsDir() || !n.allows(c, 0o1):
		return "", nil, fs.ErrPermission
	}
	return n.program, n.data, nil
}

// Open opens p as a shell redirection or a program does: flag is os.OpenFile's.
func (f *FS) Open(p string, flag int, perm fs.FileMode, c cred) (io.ReadWriteCloser, error) {
	if p == "/dev/null" {
		return devNull{}, nil
	}
	if p == "/dev/stdout" || p == "/dev/stderr" || p == "/dev/stdin" {
		return devNull{}, nil // the shell maps these itself; a program writing there loses the bytes
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		_, n := f.lookup(p, true)
		switch {
		case n == nil:
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
		case n.mode.IsDir():
			return nil, &fs.PathError{Op: "open", Path: p, Err: errIsDir}
		case !n.allows(c, 0o4):
			return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
		}
		return readHandle{bytes.NewReader(n.data)}, nil
	}
	if _, n := f.lookup(p, true); n == nil && flag&os.O_CREATE == 0 {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	var start []byte
	appendTo := flag&os.O_APPEND != 0
	if _, n := f.lookup(p, true); n != nil && !appendTo && flag&os.O_TRUNC == 0 {
		start = n.data
	}
	n, err := f.write(p, start, perm, c, appendTo)
	if err != nil {
		return nil, err
	}
	return &writeHandle{fs: f, n: n}, nil
}

type devNull struct{}

func (devNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (devNull) Write(b []byte) (int, error) { return len(b), nil }
func (devNull) Close() error                { return nil }

type readHandle struct{ *bytes.Reader }

func (readHandle) Write([]byte) (int, error) { return 0, fs.ErrPermission }
func (readHandle) Close() error              { return nil }

// writeHandle appends what is written to its node, as it is written. It grows a buffer of its own
// (amortised, so `seq 100000 > f` is linear) and gives the node a clipped view of it: whoever holds
// the node's bytes (a reader, a snapshot) never sees them change.
type writeHandle struct {
	fs  *FS
	n   *node
	buf []byte
}

func (w *writeHandle) Read([]byte) (int, error) { return 0, io.EOF }
func (w *writeHandle) Close() error             { return nil }
func (w *writeHandle) Write(b []byte) (int, error) {
	w.fs.mu.Lock()
	defer w.fs.mu.Unlock()
	if !w.ownsNodeData() { // written by someone else since: go on from what the node holds
		w.buf = slices.Clone(w.n.data)
	}
	w.buf = append(w.buf, b...)
	w.n.data = slices.Clip(w.buf)
	return len(b), nil
}

func (w *writeHandle) ownsNodeData() bool {
	return len(w.buf) == len(w.n.data) && (len(w.buf) == 0 || &w.buf[0] == &w.n.data[0])
}

// fileInfo describes a node.
type fileInfo struct {
	name string
	n    node
}

func (i fileInfo) Name() string       { return i.name }
func (i fileInfo) Size() int64        { return int64(len(i.n.data)) }
func (i fileInfo) Mode() fs.FileMode  { return i.n.mode }
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.n.mode.IsDir() }
func (i fileInfo) Sys() any           { return owner{uid: i.n.uid, gid: i.n.gid} }

// owner is what fileInfo.Sys holds.
type owner struct{ uid, gid int }
