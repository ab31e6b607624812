package contract

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// LoadSpec reads ../shared/specs/<name> next to the module root, skipping the test when the
// reference folder is not there (it is not part of this repository).
func LoadSpec(t testing.TB, name string) *openapi3.T {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("module root (go.mod) not found above the test's directory")
		}
		dir = filepath.Dir(dir)
	}
	path := filepath.Join(dir, "..", "shared", "specs", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("contract test skipped: the spec %s is not available at %s (it lives in ../shared/specs beside the repository)", name, path)
	}
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI document: %v", name, err)
	}
	return doc
}
