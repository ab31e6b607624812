package builders

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolvedReadsFilesOnce: a resolved spec has read its file steps' files once; the fingerprint,
// files_hash and the files a backend uploads all come from that read, so one build never sees two
// versions of a file that changes while it runs (nor reads the disk for each of them).
func TestResolvedReadsFilesOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "app.conf")
	write := func(content string) {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one\n")
	spec := TemplateSpec{TemplateID: "py", Image: "python:3.12", Steps: []BuildStep{{File: &FileStep{Source: file, Destination: "/etc/"}}}}
	resolved := spec.Resolved()
	fingerprint, filesHash := resolved.Fingerprint(), mustFilesHash(t, resolved)
	stepHash, err := resolved.Steps[0].File.Hash()
	if err != nil {
		t.Fatal(err)
	}
	write("two, longer\n")
	if resolved.Fingerprint() != fingerprint || mustFilesHash(t, resolved) != filesHash {
		t.Error("the resolved spec read the edited file again")
	}
	if again, _ := resolved.Steps[0].File.Hash(); again != stepHash {
		t.Error("the resolved file step hashed the edited file")
	}
	if files, _ := resolved.Steps[0].File.Files(); files.Entries[0].Size != int64(len("one\n")) {
		t.Errorf("the resolved file step lists %+v, not the file as read", files.Entries)
	}
	if spec.Fingerprint() == fingerprint || mustFilesHash(t, spec) == filesHash {
		t.Error("the spec before Resolved does not read the files as they are now")
	}
	if spec.Steps[0].File.read != nil {
		t.Error("Resolved changed the spec it was called on")
	}
}

func mustFilesHash(t *testing.T, s TemplateSpec) string {
	t.Helper()
	hash, err := s.FilesHash()
	if err != nil {
		t.Fatal(err)
	}
	return hash
}
