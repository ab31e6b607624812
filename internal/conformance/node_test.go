package conformance

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// clientsDir is the folder with package.json and the node test scripts.
func clientsDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "conformance")
}

var (
	npmOnce sync.Once
	npmErr  error
	npmOut  []byte
)

// installClients runs `npm ci` once per test binary, unless node_modules is already newer than
// the lock file. Missing node or npm is a failure that says how to install them, never a skip:
// the conformance tests are part of `make test`.
func installClients(t *testing.T) string {
	t.Helper()
	dir := clientsDir(t)
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH: the conformance tests run the official JavaScript SDKs. "+
				"Install Node.js >= 20.18 with npm (Debian: apt-get install nodejs npm), then run make test again", tool)
		}
	}
	npmOnce.Do(func() {
		if upToDate(filepath.Join(dir, "node_modules", ".package-lock.json"), filepath.Join(dir, "package-lock.json")) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		npmOut, npmErr = cmd.CombinedOutput()
	})
	if npmErr != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, npmErr, npmOut)
	}
	return dir
}

func upToDate(installed, lock string) bool {
	a, errA := os.Stat(installed)
	b, errB := os.Stat(lock)
	return errA == nil && errB == nil && !a.ModTime().Before(b.ModTime())
}

// runNodeTest runs `node --test <script>` from the clients folder with env added to the test's
// environment, and fails the test with node's whole output when any node test fails.
func runNodeTest(t *testing.T, script string, env ...string) {
	t.Helper()
	dir := installClients(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--test", "--test-reporter=spec", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test %s:\n%s", script, out)
	if err != nil {
		t.Fatalf("node --test %s: %v (the official client disagrees with the emulator; output above)", script, err)
	}
}
