// Package daytona builds sandbox templates as Daytona snapshots, through a small typed client of
// Daytona's API (no Go SDK is published). Sources, named in comments where they decide something:
// the server daytonaio/daytona v0.190.0 (apps/api/src/sandbox, apps/api/src/docker-registry, the
// daemon's apps/daemon/pkg/toolbox), the newer OpenAPI file of daytona/clients
// (openapi-specs/api.json, toolbox.json), and the SDK @daytonaio/sdk 0.218.0 (Snapshot.ts,
// Image.ts, Process.ts); where the old server and the spec or SDK disagree, the spec and SDK win.
//
// A snapshot's name cannot be reused, renamed or updated (409 on a name the organization has), so
// each build creates a snapshot named after the template and its inputs' fingerprint
// (<template_id>:inputs-<fingerprint>, names.go), waits for it to be active, and only then removes
// the snapshots it superseded: consumers, who start sandboxes by the name template_ref carries,
// always have an active one. A snapshot already carrying the name is adopted, never answered 409.
package daytona
