// Package daytonaemu is an in-process fake of the Daytona API, its toolbox proxy and its build-log
// proxy, as far as the daytona builder and the official SDK (@daytonaio/sdk) use them, for tests
// that must not need Daytona. It is modelled on the server's source at v0.190.0 (the last public
// one: apps/api/src/sandbox/..., apps/api/src/docker-registry/..., the runner and the daemon),
// the current public OpenAPI file (daytona/clients openapi-specs/api.json, toolbox.json) and the
// SDK 0.218.0; each behaviour names the file it follows. Where the sources disagree the spec and
// the SDK win.
//
//   - The API is served under /api (DAYTONA_API_URL is URL+"/api"), with a Bearer key; errors are
//     the API's {path, timestamp, statusCode, error, message} (all-exceptions.filter.ts).
//   - Snapshots: POST /snapshots from imageName (a tag or digest required, :latest refused) or
//     buildInfo.dockerfileContent; 409 for a name the organization has; per-sandbox limits, the
//     GPU quota, the region. States move as the snapshot manager moves them, one step per read
//     (Options.PollsPerState): pending -> pulling -> active for an image, pending -> building ->
//     active for a build; a pull that fails goes pending -> error, a build that fails building ->
//     error, each with errorReason. A build whose Dockerfile and context an active snapshot already
//     has is active at once. GET by id or name, list with ?name= (part of the name), pagination
//     and sort; build logs through build-logs-url then a plain-text read; DELETE by UUID only
//     (removing, then gone); activate with its refusals and its 10-minute cooldown, deactivate.
//   - Images are sandboxos's model (Options.Images declares more): what a snapshot holds is what
//     its pull gives or its Dockerfile built there (build.go); private images (Options.PrivateImages)
//     pull only through an organization registry entry (/docker-registry) matching their registry
//     URL with their credentials.
//   - Build contexts: GET /object-storage/push-access hands out the emulator's own S3 (path-style
//     under /storage: ListObjectsV2, PutObject plain or aws-chunked), where the SDK uploads each
//     context tar under <organizationId>/<hash>/; COPY steps read them back by buildInfo.contextHashes.
//   - Sandboxes: POST /sandbox {snapshot, env, user} from an active snapshot, started; the
//     toolbox's POST /process/execute runs a command in its copy of the snapshot's filesystem
//     through sandboxos's shell; DELETE.
//
// Not emulated: the SDK's event socket (/api/socket.io/: the SDK falls back to polling),
// sandboxes from buildInfo, volumes, and the rest of the toolbox. Controls under ControlPath
// (control.go): image declarations, private images, faults, the clock, the 14-day expiry of a
// snapshot, and inspection of snapshots, sandboxes, registry entries and Stats.
package daytonaemu
