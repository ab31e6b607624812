package conformance

import "testing"

// TestE2BJavaScriptSDK runs E2B's official JavaScript SDK (npm package e2b) against the standalone
// emulator, configured by nothing but the printed settings: Template.build with pipInstall, copy,
// setStartCmd, skipCache and name:tag, Template.exists, tags, delete, and builds that fail as they
// do on E2B's real server.
func TestE2BJavaScriptSDK(t *testing.T) {
	const key = "e2b_0123456789abcdef0123456789abcdef01234567"
	settings := startEmulator(t, []string{"E2B_API_URL", "E2B_API_KEY"}, "-api-key", key)
	if settings["E2B_API_KEY"] != key {
		t.Fatalf("the emulator printed E2B_API_KEY=%q, want the key it was given", settings["E2B_API_KEY"])
	}
	// E2B_DOMAIN points nowhere real, so nothing the SDK derives from it could reach E2B.
	runNodeTest(t, "e2b.test.mjs", append(envOf(settings), "E2B_DOMAIN=emulator.invalid", "E2B_ACCESS_TOKEN=", "E2B_DEBUG=")...)
}
