// Package opensandboxemu is an in-process fake of the OpenSandbox lifecycle API and the subset of
// the execd API that the opensandbox builder uses, for tests that must not need Docker.
//
// It follows the shapes of the OpenSandbox specs (sandbox-lifecycle.yml, execd-api.yaml):
//   - lifecycle routes are served both at the root and under /v1, as the real server mounts them;
//   - sandboxes go Pending → Running and snapshots Creating → Ready (or Failed) as they are polled,
//     so state machines advance without timers;
//   - HTTPException-style errors are {code,message}; body validation errors are FastAPI's
//     422 {detail:[...]} (including the echoed "input", as FastAPI does);
//   - execd for a sandbox lives under /execd/{sandboxId} on the same listener; the endpoint API
//     returns that address without a scheme, with the access token in the endpoint headers.
//
// Failure injection: private and unpullable images, failing snapshots, command results, and
// HTTP faults (5xx, 429) on any route. Inspection: Sandboxes (deleted ones included), Snapshots,
// Requests.
package opensandboxemu
