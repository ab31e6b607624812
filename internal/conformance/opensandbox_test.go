package conformance

import "testing"

// TestOpenSandboxSDK runs the official @alibaba-group/opensandbox SDK against the standalone
// emulator: Sandbox.create from an image and from a snapshot, streamed and failing commands,
// snapshot create/get/list/delete, and the server behaviours issues 11 and 19 are about (create
// answers Running with expiresAt, a sandbox ends with its entrypoint, a command finds only what the
// image holds, a snapshot in use cannot be deleted, pause/resume/renew/metadata, ?name=, the
// timeout cap), what build steps use (folders, uploads, a cwd, users, envs, recorded in order),
// and what a check does (a sandbox restored with env, metadata and a timeout, its commands as the
// template's user, found by metadata, gone once killed), driven through the emulator's /_emulator/ controls.
func TestOpenSandboxSDK(t *testing.T) {
	settings := startEmulator(t, []string{"OPEN_SANDBOX_DOMAIN", "OPEN_SANDBOX_API_KEY"})
	runNodeTest(t, "opensandbox.test.mjs",
		"OPEN_SANDBOX_DOMAIN="+settings["OPEN_SANDBOX_DOMAIN"], "OPEN_SANDBOX_API_KEY="+settings["OPEN_SANDBOX_API_KEY"])
}
