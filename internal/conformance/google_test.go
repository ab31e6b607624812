package conformance

import "testing"

// TestGoogleAuthLibrary runs google-auth-library, Google's own Node.js client, against the
// standalone emulator's token endpoint: the service-account JWT-bearer flow from the key file the
// emulator wrote and named in GOOGLE_APPLICATION_CREDENTIALS (its token_uri is the emulator).
func TestGoogleAuthLibrary(t *testing.T) {
	settings := startEmulator(t, []string{"GOOGLE_APPLICATION_CREDENTIALS"})
	runNodeTest(t, "google.test.mjs", envOf(settings)...)
}
