package builders

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
)

// StepFiles is what a file step places: the entries of Src, relative to a local context folder,
// as E2B's SDK collects them for copy(src, dest) (js-sdk template/utils.ts getAllFilesInPath): the
// source itself, then, for a folder, everything under it, symbolic links not followed, sorted by
// path. A .dockerignore is not read: every file under Source is placed.
type StepFiles struct {
	Src         string // the SDK's copy source: the base name of Source (or of Destination, for content)
	Destination string
	Entries     []PlacedFile
}

// PlacedFile is one folder, file or symbolic link of a file step.
type PlacedFile struct {
	Path   string // slash-separated, relative to the context folder: Src, or Src/...
	Mode   uint32 // the unix st_mode, type bits included, as Node's fs.Stats.mode
	Size   int64
	Local  string // the local file to read ("" for inline content and folders)
	Inline []byte // inline content, or a symbolic link's target
}

// contentMode is the mode inline content is placed with unless the step sets one: a regular file, 0644.
const contentMode = 0o100644

// readFiles is what a file step places and its filesHash, read from disk together.
type readFiles struct {
	files     StepFiles
	filesErr  error // the source could not be walked
	digest    string
	digestErr error // a file could not be read (or filesErr)
}

func (f FileStep) readFiles() readFiles {
	if f.read != nil {
		return *f.read
	}
	var r readFiles
	if r.files, r.filesErr = f.collect(); r.filesErr != nil {
		r.digestErr = r.filesErr
	} else {
		r.digest, r.digestErr = r.files.Hash()
	}
	return r
}

// Files is what the step places. An unreadable source is an error naming it.
func (f FileStep) Files() (StepFiles, error) {
	r := f.readFiles()
	return r.files, r.filesErr
}

// Hash is the step's filesHash (StepFiles.Hash), or why its files cannot be read.
func (f FileStep) Hash() (string, error) {
	r := f.readFiles()
	return r.digest, r.digestErr
}

// collect walks the step's source for what it places.
func (f FileStep) collect() (StepFiles, error) {
	if f.Content != nil {
		name := path.Base(f.Destination)
		return StepFiles{Src: name, Destination: f.Destination,
			Entries: []PlacedFile{{Path: name, Mode: contentMode, Size: int64(len(*f.Content)), Inline: []byte(*f.Content)}}}, nil
	}
	root, err := filepath.Abs(f.Source)
	if err != nil {
		return StepFiles{}, fmt.Errorf("reading %s: %w", f.Source, err)
	}
	files := StepFiles{Src: filepath.Base(root), Destination: f.Destination}
	err = filepath.WalkDir(root, func(local string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := os.Lstat(local)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(root), local)
		entry := PlacedFile{Path: filepath.ToSlash(rel), Mode: unixMode(info.Mode()), Size: info.Size()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(local)
			if err != nil {
				return err
			}
			entry.Inline = []byte(target)
		case info.Mode().IsRegular():
			entry.Local = local
		}
		files.Entries = append(files.Entries, entry)
		return nil
	})
	if err != nil {
		return StepFiles{}, fmt.Errorf("reading %s: %w", f.Source, err)
	}
	slices.SortFunc(files.Entries, func(a, b PlacedFile) int { return compareStrings(a.Path, b.Path) })
	return files, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// unixMode is the st_mode Node reports for a file of mode m (Go keeps type and special bits apart).
func unixMode(m fs.FileMode) uint32 {
	mode := uint32(m.Perm())
	for bit, unix := range map[fs.FileMode]uint32{fs.ModeSetuid: 0o4000, fs.ModeSetgid: 0o2000, fs.ModeSticky: 0o1000} {
		if m&bit != 0 {
			mode |= unix
		}
	}
	switch {
	case m&fs.ModeSymlink != 0:
		return mode | 0o120000
	case m.IsDir():
		return mode | 0o040000
	case m&fs.ModeNamedPipe != 0:
		return mode | 0o010000
	case m&fs.ModeSocket != 0:
		return mode | 0o140000
	case m&fs.ModeCharDevice != 0:
		return mode | 0o020000
	case m&fs.ModeDevice != 0:
		return mode | 0o060000
	}
	return mode | 0o100000
}

// Open reads a file entry's bytes (inline ones too).
func (e PlacedFile) Open() (io.ReadCloser, error) {
	if e.Local == "" {
		return io.NopCloser(bytes.NewReader(e.Inline)), nil
	}
	return os.Open(e.Local)
}

// IsDir, IsSymlink and IsRegular tell the entry's type.
func (e PlacedFile) IsDir() bool     { return e.Mode&0o170000 == 0o040000 }
func (e PlacedFile) IsSymlink() bool { return e.Mode&0o170000 == 0o120000 }
func (e PlacedFile) IsRegular() bool { return e.Mode&0o170000 == 0o100000 }

// Hash is E2B's filesHash of the step (js-sdk template/utils.ts calculateFilesHash): sha256 over
// "COPY <src> <dest>", then each entry's path, st_mode and size in decimal, and a file's bytes or a
// link's target. E2B keys the step's cached layer and the uploaded files by it.
func (s StepFiles) Hash() (string, error) {
	h := sha256.New()
	_, _ = io.WriteString(h, "COPY "+s.Src+" "+s.Destination)
	for _, e := range s.Entries {
		_, _ = io.WriteString(h, e.Path+strconv.FormatUint(uint64(e.Mode), 10)+strconv.FormatInt(e.Size, 10))
		if !e.IsRegular() && !e.IsSymlink() {
			continue // a folder counts by its path, mode and size only
		}
		r, err := e.Open()
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, r)
		_ = r.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// filesDigest is the filesHash of a file step, or the reason it cannot be read: what the fingerprint
// and files_hash record of the files, so an edited file rebuilds the template.
func (f FileStep) filesDigest() (string, error) {
	hash, err := f.Hash()
	if err != nil {
		return "unreadable: " + err.Error(), err
	}
	return hash, nil
}

// FilesHash digests every file step's files ("" without file steps): it changes when a placed
// file's content, mode or name does. A step whose files cannot be read counts by the reason, and
// the first such reason is the error (the digest is still returned).
func (s TemplateSpec) FilesHash() (string, error) {
	h := sha256.New()
	n := 0
	var unreadable error
	for _, step := range s.Steps {
		if step.File != nil {
			digest, err := step.File.filesDigest()
			if unreadable == nil {
				unreadable = err
			}
			_, _ = io.WriteString(h, digest+"\n")
			n++
		}
	}
	if n == 0 {
		return "", nil
	}
	return hex.EncodeToString(h.Sum(nil)), unreadable
}

// Resolved is the spec as one build reads it: the files of its file steps read, with their
// filesHash, and its Fingerprint computed, once, so the fingerprint, files_hash and a backend's
// upload plan take them from it instead of going back to disk. Set every other field first.
func (s TemplateSpec) Resolved() TemplateSpec {
	if s.fingerprint != "" {
		return s
	}
	s.Steps = slices.Clone(s.Steps)
	for i, step := range s.Steps {
		if step.File != nil {
			file := *step.File
			read := file.readFiles()
			file.read = &read
			s.Steps[i].File = &file
		}
	}
	s.fingerprint = s.Fingerprint()
	return s
}
