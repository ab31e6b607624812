package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesTest: every example module with `terraform test` files (*.tftest.hcl beside it or in
// its tests/) passes `terraform test` / `tofu test` on the CLIs with mock providers (Terraform >= 1.7,
// OpenTofu >= 1.8), the mocked runs with no backend and the others against an E2B emulator, whose
// settings the provider reads from the environment as the testing-modules guide says.
func TestExamplesTest(t *testing.T) {
	root := filepath.Join(moduleRoot(t), "examples")
	modules := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".tftest.hcl") {
			dir := filepath.Dir(path)
			if filepath.Base(dir) == "tests" {
				dir = filepath.Dir(dir)
			}
			modules[dir] = true
		}
		return err
	})
	if err != nil || len(modules) == 0 {
		t.Fatalf("found example modules with tests %v (%v), want the testing-modules guide's", modules, err)
	}
	for dir := range modules {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			c := newCLI(t)
			if minor := mockProvidersSince(c.bin); !c.atLeast(minor) {
				t.Skipf("mock providers need 1.%d or later; %s is older", minor, c.bin)
			}
			copyTree(t, dir, c.dir)
			emu, _ := newE2B(t)
			c.env = append(c.env, "E2B_API_URL="+emu.URL, "E2B_API_KEY=e2e-key", "E2B_DOMAIN=")
			out, err := c.run("test", "-no-color")
			if err != nil || !strings.Contains(out, " 0 failed") {
				t.Fatalf("%s test: %v\n%s", filepath.Base(c.bin), err, out)
			}
			if len(emu.BuildStarts()) == 0 {
				t.Errorf("no run built anything on the emulator:\n%s", out)
			}
		})
	}
}

// mockProvidersSince is the minor version (of 1.x) from which the CLI has mock_provider and
// override_resource in test files: Terraform 1.7, OpenTofu 1.8.
func mockProvidersSince(bin string) int {
	if strings.Contains(filepath.Base(bin), "tofu") {
		return 8
	}
	return 7
}
