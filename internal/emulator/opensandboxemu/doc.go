// Package opensandboxemu is an in-process fake of the OpenSandbox lifecycle API and the subset of
// the execd API that the opensandbox builder and the official SDKs use, for tests that must not
// need Docker. Where the spec and the server disagree, it follows the server
// (opensandbox-group/OpenSandbox server/opensandbox_server/...), as cited at each place:
//   - lifecycle routes are served both at the root and under /v1, as the real server mounts them;
//   - POST /sandboxes answers a Running sandbox, as the Docker runtime does (Options.PendingPolls
//     opts into Pending, for wait tests); snapshots go Creating → Ready (or Failed) as polled;
//   - a sandbox lives as long as its entrypoint (bootstrap.go, components/execd/bootstrap.sh): an
//     entrypoint its image cannot run ends it, Failed with the exit code in its status; what an
//     image holds is internal/emulator/sandboxos's model of it (sandbox_fs.go);
//   - a restore without entrypoint runs `tail -f /dev/null` (snapshot_restore.py);
//   - deleting a snapshot marks it Deleting; while a sandbox restored from it exists the delete
//     answers 409 SNAPSHOT::DELETE_CONFLICT and it stays Deleting (snapshot_service.py,
//     docker/snapshot_runtime.py); one still Creating is a 409 SNAPSHOT::INVALID_STATE;
//   - metadata are labels (validators.py ensure_metadata_labels), GET /sandboxes filters by
//     ?metadata=; pause, resume, renew-expiration and the metadata patch work as on Docker;
//   - GET /snapshots?name= filters by exact name (Options.IgnoreSnapshotNameFilter: an old server);
//   - a timeout above Options.MaxSandboxTimeoutSeconds is 400 (validators.py);
//   - HTTPException-style errors are {code,message}; body validation errors are FastAPI's
//     422 {detail:[...]} (including the echoed "input", as FastAPI does);
//   - execd for a sandbox lives under /execd/{sandboxId} on the same listener; the endpoint API
//     returns that address without a scheme, with the access token in the endpoint headers. It
//     runs a command through sandboxos's shell in the sandbox's filesystem (commands.go): a
//     program the image lacks exits 127.
//
// Failure injection: private and unpullable images, failing snapshots, command results, and
// HTTP faults (5xx, 429, optionally echoing the request body) on any route, from Go or from
// outside under ControlPath (control.go). Inspection: Sandboxes (deleted ones included),
// Snapshots, Requests.
package opensandboxemu
