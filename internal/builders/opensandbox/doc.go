// Package opensandbox builds templates on OpenSandbox (github.com/opensandbox-group/OpenSandbox).
//
// OpenSandbox has no build API, so a template is a named snapshot of a prepared sandbox:
//
//  0. delete the builder sandboxes of this template that a run killed mid-build on this host left
//     (builder_sandboxes.go says how a dead run is told from a concurrent live build);
//  1. create a builder sandbox from image (+ basic registry auth; AWS and GCP credentials are
//     first exchanged for a login through Config.RegistryLogin) and wait until it is Running. Its
//     entrypoint is SandboxEntrypoint(start_cmd): the code interpreter's when start_cmd is unset,
//     NeutralEntrypoint for "", else `sh -c start_cmd`. The server ends a sandbox when its
//     entrypoint ends, so an image that cannot run it fails here, saying what to set;
//  2. run packages and the steps through execd (steps.go), reached via the lifecycle endpoint API:
//     commands with the working directory, environment and user the earlier steps set, files
//     through its upload, folders through its mkdir (a failing command names its step, its exit
//     code and its last output); then the ready command, if any, until it succeeds;
//  3. snapshot it with name = template_id, report the template as created, and wait until Ready;
//  4. always delete the builder sandbox, on success, failure or cancellation alike.
//
// A snapshot keeps the filesystem only: whoever starts a sandbox from it passes
// SandboxEntrypoint(start_cmd) as entrypoint, or gets `tail -f /dev/null`, and the environment,
// working directory and user the steps set (builders.StepsContext).
//
// The template reference is the snapshot name, never its id. Names are not unique on the server,
// so this package settles duplicates itself:
//   - a template is usable when at least one Ready snapshot carries its name;
//   - ResolveSnapshotID picks the newest Ready one (latest createdAt, then the greater id);
//   - after a build, the name is left to the newest Ready snapshot: the build deletes the other
//     snapshots with the name that are no newer than its own (its own too, when a newer one is
//     Ready), and never a newer one, so concurrent builds of one name converge on one snapshot
//     however they interleave. Lookups send ?name= and filter by name too (older servers ignore it);
//   - Delete removes every snapshot with the name, waiting out ones still Creating; one a restored
//     sandbox still uses (the server would answer 409 SNAPSHOT::DELETE_CONFLICT) fails the delete at
//     once, naming the sandboxes.
//
// The builder sandbox's timeout stays within Config.MaxSandboxTimeoutSeconds, the server's cap.
//
// Environment: the provider's settings fall back to OPEN_SANDBOX_API_KEY, OPEN_SANDBOX_DOMAIN and
// OPEN_SANDBOX_PROTOCOL, as the OpenSandbox SDKs do (Backend.Settings); this package reads no
// environment variable.
package opensandbox
