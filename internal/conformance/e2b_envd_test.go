package conformance

import "testing"

// TestE2BSandboxCommands runs E2B's official JavaScript SDK's sandbox data plane against the
// standalone emulator, configured by the settings it prints: Sandbox.create("<name>:<build id>")
// starts that build (not the live one) with the request's envs, timeout and metadata;
// commands.run reaches envd through E2B_SANDBOX_URL as the template's user, in its workdir, with
// what the build installed, and a failing command is the SDK's CommandExitError with its exit code
// and output; kill ends the sandbox. What sandbox_template_check does on E2B.
func TestE2BSandboxCommands(t *testing.T) {
	const key = "e2b_0123456789abcdef0123456789abcdef01234567"
	settings := startEmulator(t, []string{"E2B_API_URL", "E2B_API_KEY", "E2B_SANDBOX_URL"}, "-api-key", key)
	isolated := []string{
		"E2B_DOMAIN=emulator.invalid", // nothing the SDK derives from the domain can reach E2B
		"E2B_ACCESS_TOKEN=", "E2B_DEBUG=",
		"HOME=" + t.TempDir(),
	}
	runNodeTest(t, "e2b-envd.test.mjs", append(envOf(settings), isolated...)...)
}
