package conformance

import "testing"

// TestE2BJavaScriptSDK runs E2B's official JavaScript SDK (npm package e2b) against the standalone
// emulator, configured by nothing but the printed settings: Template.build with pipInstall, copy,
// setStartCmd, skipCache and name:tag, Template.exists, tags, delete (the SDK's API client and
// @e2b/cli), and builds that fail as they do on E2B's real server: a base template that cannot be
// used, the orchestrator's pull failures, an empty fromImage, the team's sizing maxima. Versions:
// Template.build with tags (a candidate), assignTags (promotion, rollback), getTags, removeTags,
// and the build Sandbox.create of "name", "name:tag" and "name:<build id>" starts; @e2b/cli
// template list names the build the plain name starts.
func TestE2BJavaScriptSDK(t *testing.T) {
	const key = "e2b_0123456789abcdef0123456789abcdef01234567"
	settings := startEmulator(t, []string{"E2B_API_URL", "E2B_API_KEY"}, "-api-key", key)
	if settings["E2B_API_KEY"] != key {
		t.Fatalf("the emulator printed E2B_API_KEY=%q, want the key it was given", settings["E2B_API_KEY"])
	}
	isolated := []string{
		"E2B_DOMAIN=emulator.invalid", // nothing the SDK derives from the domain can reach E2B
		"E2B_ACCESS_TOKEN=", "E2B_DEBUG=",
		"NO_UPDATE_NOTIFIER=1", // @e2b/cli would ask registry.npmjs.org for a newer version
		"HOME=" + t.TempDir(),  // and no ~/.e2b or ~/.config of this machine
	}
	runNodeTest(t, "e2b.test.mjs", append(envOf(settings), isolated...)...)
}
