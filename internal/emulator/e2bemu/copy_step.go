package e2bemu

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// copyStep is commands/copy.go with copy_script.sh: the uploaded tar is unpacked, and the entry
// the source path names is moved to the target (relative to the working directory, the user's
// home when none): a file to the target (into it when it ends with "/"), a folder's contents
// merged into it, owned by the step's owner (the current user by default) with the step's mode.
func copyStep(st *layerState, args []string, archive []byte) (string, string) {
	src := strings.Trim(globFree(args[0]), "/")
	owner := st.ctx.user + ":" + st.ctx.user
	if len(args) > 2 && args[2] != "" {
		owner = args[2]
		if !strings.Contains(owner, ":") {
			owner += ":" + owner
		}
	}
	var mode fs.FileMode
	if len(args) > 3 && args[3] != "" {
		if m, err := strconv.ParseUint(args[3], 8, 32); err == nil {
			mode = fs.FileMode(m)
		}
	}
	target := args[1]
	if !strings.HasPrefix(target, "/") {
		base := st.ctx.workdir
		if base == "" {
			u, _ := st.machine.LookupUser(st.ctx.user)
			base = defaultTo(u.Home, "/")
		}
		target = path.Join(base, target) + map[bool]string{true: "/"}[strings.HasSuffix(args[1], "/")]
	}
	entries, err := untar(archive)
	if err != nil {
		return err.Error(), "failed to extract files: exit status 2"
	}
	var srcEntry *tar.Header
	for _, e := range entries {
		if strings.Trim(e.hdr.Name, "/") == src {
			srcEntry = e.hdr
		}
	}
	if srcEntry == nil && src != "" {
		return "Error: source path does not exist: " + src, "failed to copy files: exit status 1"
	}
	m := st.machine
	for _, e := range entries {
		name := strings.Trim(e.hdr.Name, "/")
		var dest string
		switch {
		case srcEntry != nil && srcEntry.Typeflag != tar.TypeDir && name == src:
			dest = target
			if strings.HasSuffix(target, "/") {
				dest = path.Join(target, path.Base(src))
			}
		case src == "" || strings.HasPrefix(name, src+"/"):
			dest = path.Join(target, strings.TrimPrefix(strings.TrimPrefix(name, src), "/"))
		case name == src:
			dest = target
		default:
			continue
		}
		entryMode := fs.FileMode(e.hdr.Mode) & 0o7777
		if mode != 0 {
			entryMode = mode
		}
		switch e.hdr.Typeflag {
		case tar.TypeDir:
			if _, err := m.MkdirAll(dest, entryMode|0o700, owner); err != nil {
				return err.Error(), "failed to copy files: exit status 1"
			}
		case tar.TypeReg:
			_, _ = m.MkdirAll(path.Dir(dest), 0o755, owner)
			if err := m.WriteFile(dest, e.data, entryMode, owner); err != nil {
				return err.Error(), "failed to copy files: exit status 1"
			}
		}
	}
	return "", ""
}

// globFree is the source path up to its first glob (the SDK resolved the glob into the tar).
func globFree(p string) string {
	if i := strings.IndexAny(p, "*?[{"); i >= 0 {
		return path.Dir(p[:i] + "x")
	}
	return p
}

type tarEntry struct {
	hdr  *tar.Header
	data []byte
}

func untar(archive []byte) ([]tarEntry, error) {
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return nil, errors.New("tar: the uploaded files are not a gzipped tar")
	}
	tr := tar.NewReader(gz)
	var out []tarEntry
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		data, _ := io.ReadAll(tr)
		out = append(out, tarEntry{hdr: hdr, data: data})
	}
}
