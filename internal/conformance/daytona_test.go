package conformance

import "testing"

// TestDaytonaSDK runs the official @daytonaio/sdk against the standalone emulator: snapshot.create
// from an image and from an Image with pip and apt (its build log streamed), the server's refusals
// (409, :latest) and failures (a failing RUN, an image that does not pull) with their errorReason,
// get by name and id, list with pagination, activate after the 14-day expiry and the cooldown
// (through the emulator's /_emulator/ controls), delete, daytona.create({snapshot}) and
// process.executeCommand over what the build installed, sandbox.delete.
func TestDaytonaSDK(t *testing.T) {
	settings := startEmulator(t, []string{"DAYTONA_API_URL", "DAYTONA_API_KEY", "DAYTONA_TARGET"})
	runNodeTest(t, "daytona.test.mjs", "DAYTONA_API_URL="+settings["DAYTONA_API_URL"],
		"DAYTONA_API_KEY="+settings["DAYTONA_API_KEY"], "DAYTONA_TARGET="+settings["DAYTONA_TARGET"])
}
