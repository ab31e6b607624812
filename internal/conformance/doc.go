// Package conformance holds tests only: official clients that nobody here wrote (E2B's `e2b` SDK,
// `@alibaba-group/opensandbox`, the AWS SDK for JavaScript v3, google-auth-library) run against the
// bundled emulators, as the standalone sandbox-emulator serves them. A client nobody here wrote is
// the judge of an emulator: where one of these tests fails, the emulator is wrong, not the SDK.
//
// The clients are pinned in conformance/package.json (lock file beside it) and installed with
// `npm ci` on first use. Node.js and npm must be on PATH.
package conformance
