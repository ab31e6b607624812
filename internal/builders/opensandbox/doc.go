// Package opensandbox builds templates on OpenSandbox (github.com/opensandbox-group/OpenSandbox).
//
// OpenSandbox has no build API, so a template is a named snapshot of a prepared sandbox:
//
//  1. create a builder sandbox from image (+ basic registry auth; AWS and GCP credentials are
//     first exchanged for a login through Config.RegistryLogin) and wait until it is Running;
//  2. install packages through execd's command API, reached via the lifecycle endpoint API;
//  3. snapshot it with name = template_id, report the template as created, and wait until Ready;
//  4. always delete the builder sandbox, on success, failure or cancellation alike.
//
// The template reference is the snapshot name, never its id. Names are not unique on the server,
// so this package settles duplicates itself:
//   - a template is usable when at least one Ready snapshot carries its name;
//   - ResolveSnapshotID picks the newest Ready one (latest createdAt, then the greater id);
//   - after a successful build (a forced rebuild or a Terraform update included) every older
//     snapshot with that name is deleted, so the name settles on the new snapshot. Snapshots that
//     cannot be deleted yet (still Creating: a concurrent build) are left for newest-Ready-wins.
//   - Delete removes every snapshot with the name, waiting out ones still Creating.
//
// Environment: ConfigFromEnv reads OPEN_SANDBOX_API_KEY, OPEN_SANDBOX_DOMAIN and
// OPEN_SANDBOX_PROTOCOL, as the OpenSandbox SDKs do.
package opensandbox
