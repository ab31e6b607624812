package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesValidate: every example configuration (the ones the docs show) is valid for the
// provider's schema on this CLI.
func TestExamplesValidate(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "examples")
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") {
			dir := filepath.Dir(path)
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return err
	})
	if err != nil || len(dirs) < 4 {
		t.Fatalf("found example dirs %v (%v), want the provider, resource, data source and demo examples", dirs, err)
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			c := newCLI(t)
			if strings.Contains(rel, "write-only") && !c.supportsWriteOnly() {
				t.Skipf("%s uses write-only attributes, which this CLI (older than 1.11) does not support", rel)
			}
			if strings.HasPrefix(rel, "actions") {
				c.skipBelow114("actions")
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
			for _, f := range files {
				if filepath.Base(f) == "import-by-identity.tf" && !c.atLeast(12) {
					continue // import blocks by identity: Terraform and OpenTofu >= 1.12
				}
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				c.write(filepath.Base(f), string(b))
			}
			copyTree(t, filepath.Join(dir, "files"), filepath.Join(c.dir, "files")) // what file steps read, at plan
			if out, err := c.run("validate", "-no-color"); err != nil {
				t.Fatalf("validate failed: %v\n%s", err, out)
			}
		})
	}
}

// copyTree copies the folder src (when there is one) to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, strings.TrimPrefix(path, src))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}
