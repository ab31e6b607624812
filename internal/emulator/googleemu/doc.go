// Package googleemu is a local Google OAuth2 token endpoint for the service-account JWT-bearer flow
// (RFC 7523): it verifies the RS256 assertion against the public key of a key it generated, checks
// the iss, aud (Google's canonical token URL or its own) and scope claims, and issues an access token
// it records, so tests can follow the exact token to wherever it was used.
//
// golang.org/x/oauth2/google and google-auth-library (conformance/google.test.mjs) both obtain tokens
// from it. Tests break it from Go (InjectFault, FailWith) or, from outside the process, through the
// control paths under ControlPrefix. The standalone emulator serves it with New and Start and writes
// a key for GOOGLE_APPLICATION_CREDENTIALS with WriteServiceAccountKey.
package googleemu
