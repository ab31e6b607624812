// Package e2bemu is an in-memory E2B API for tests and the demo. It models what E2B's API server
// (e2b-dev/infra packages/api, summarised in shared/notes/e2b-server.md) does for the template
// endpoints, and answers in the shapes of E2B's OpenAPI spec (shared/specs/e2b-openapi.yml):
// create (v3), build start (v2), build status with logs, layer file upload links, aliases, tags,
// list, get, update and delete, sandbox create and kill, and the sandboxes' envd (its process
// service's Start, behind the client proxy), with X-API-Key auth and the spec's Error JSON.
//
// What it models, each from the server's source (file names in the code):
//   - tags are assigned when a build is requested (no tags: "default") and stay when it fails;
//     GET /templates/aliases/{alias}:tag answers 404 unless a ready build carries the tag; a build
//     id in a tag's place names exactly that build; POST /templates/tags moves tags to the ready
//     build its target names, DELETE /templates/tags removes every assignment of a tag but never
//     "default"; a build start cancels the running builds that share a tag with it;
//   - POST /sandboxes (and POST /v2/sandboxes, which the SDK calls) starts a sandbox from the build
//     "name[:tag]" resolves to: the newest ready build carrying the tag (default without one), or
//     the build a build id names, for the create's timeout (15 s without one, at most an hour), after
//     which it is gone; DELETE /sandboxes/{id} kills it;
//   - sandboxes' envd behind E2B's client proxy (envd.go): a request with the E2b-Sandbox-Id and
//     E2b-Sandbox-Port headers goes to that sandbox's envd, whose process service Start runs a
//     command in the build's filesystem model as the template's user (or the Basic auth user), in its
//     workdir (or the request's cwd), with the create's envVars and the request's envs, streaming
//     start, output and end events; a secure sandbox's envd wants its X-Access-Token;
//   - names are "namespace/alias:tag"; a bare alias resolves in the team's namespace, then among
//     promoted templates (another team's: 403), then as a template id; the team may create its own
//     template under a promoted name; an alias equal to a template id is a 409;
//   - the team's build concurrency limit (429 on create, freed when a build ends), superseded
//     unstarted builds, a start that cancels the template's other running builds, 400 "build is not
//     in waiting state", sizing rules (cpuCount 1 or even, <= 32; memoryMB even, >= 128; both at
//     most the team's maxima, by default E2B's default tier: 8 CPUs, 8192 MiB);
//   - a build's source, checked after its start was answered 202: a base template (fromTemplate)
//     that is missing, has no ready build with the tag or is another team's private template fails
//     the build at step "base"; two sources or none answer 500; an empty fromImage fails at "base";
//   - pulls (registries.go): the private registry registry.test lets only its login pull and fails
//     a build at "base" with the orchestrator's words for UNAUTHORIZED, NAME_UNKNOWN and
//     MANIFEST_UNKNOWN; other images pull as sandboxos's catalogue resolves them. Only a base
//     layer that is built pulls: a cached base (keyed on the image's name, never its credentials:
//     phases/base/hash.go) is not pulled, so its credentials are not checked until force;
//   - build layers (layers.go): base, default user, one per step, each keyed as the orchestrator
//     keys it (phases/steps/hash.go) and taken from the team's cache when an earlier build made it,
//     logged "CACHED [builder 2/3] RUN ... [key]"; force on the build or a step rebuilds that step
//     and every one after it (builder.go forceSteps); a step that is built is checked as its command
//     checks it (step_commands.go: ENV needs key/value pairs, COPY an uploaded filesHash, unknown
//     types fail), and layer files uploaded for COPY steps are the team's, whatever the template;
//   - commands run in a model of the image (internal/emulator/sandboxos; build_machine.go): RUN
//     steps as `/bin/bash -l -c` as the step's user, start and ready commands at "finalize" as the
//     last user; a non-zero exit fails the build at that step (exit status N, 127 for a program the
//     image lacks), and what a step installs is there for the next step and for sandboxes; the
//     code-interpreter start script exists only in e2bdev/code-interpreter images; ready commands
//     default to "sleep 20" with a start command and "sleep 0" without;
//   - soft delete by alias or id, refused while sandboxes run from the template; the alias is
//     released, so building under it again creates a new template id.
//
// Builds run a waiting → building → ready | error state machine on a clock tests can control.
// Every API request is recorded with the key redacted; each build keeps its start body as received,
// its minFreeDiskMb (sent by the SDKs from 2.51, recorded, not acted on) and its layers (Template).
//
// # Control path
//
// Tests that run the standalone emulator (cmd/sandbox-emulator) reach its controls over HTTP under
// ControlPrefix, /_emulator/. These need no API key, are not recorded and are never faulted. Each
// POST takes a JSON object (field names are matched case-insensitively) and answers 204, or 400
// with the Error JSON:
//
//	POST /_emulator/fail-build          {"template": "py", "reason": "...", "step": "base"}
//	     the next build started of template py ("" or absent: of any template) ends in error with
//	     reason; step defaults to "base"
//	POST /_emulator/hang-builds         {"template": "py"}   builds of py ("": all) stay building
//	POST /_emulator/release-builds      {"template": "py"}   ... until released
//	POST /_emulator/build-duration      {"duration": "2s"}   how long builds started from now on take
//	POST /_emulator/fail-requests       {"count": 3, "status": 503}
//	     the next count API requests answer status (a 429 carries Retry-After: 1)
//	POST /_emulator/faults              {"rate": 0.2, "seed": 1, "status": [500, 429], "retry_after": "1s", "latency": "100ms"}
//	     a share of API requests fails (statuses in turn), every request is slowed; {} clears
//	POST /_emulator/drop-connections    {"template": "py", "count": 2}
//	     the next count status polls of py's builds lose their connection
//	POST /_emulator/build-concurrency   {"limit": 5}         the team's concurrent build limit (0: none)
//	POST /_emulator/team-limits         {"maxCpu": 16, "maxMemoryMb": 16384}
//	     the team's sizing maxima (0: E2B's default tier, 8 and 8192); above them create answers 400
//	POST /_emulator/echo-request-bodies {"enabled": true}    error answers repeat the request body
//	POST /_emulator/refuse-steps        {"enabled": true}
//	     build starts with steps answer 400 "steps are not supported", as some E2B-compatible servers do
//	POST /_emulator/seed/template       {"name": "py"}       a template with a ready default build
//	POST /_emulator/seed/failed-template  {"name": "py", "reason": "..."}
//	     a newer build of py, tagged default, that failed (py is created when missing)
//	POST /_emulator/seed/foreign-template {"name": "x", "public": true}
//	     another team's promoted template named x
//	POST /_emulator/seed/sandboxes      {"template": "py", "count": 1}
//	     running sandboxes on py (0: none); while any run, deleting py answers 400
//	GET  /_emulator/templates/{id or alias}   the template as TemplateInfo JSON
//	GET  /_emulator/sandboxes/{sandboxID}     the template and build a sandbox started from (SandboxInfo)
//	GET  /_emulator/sandboxes                 every running sandbox ([]SandboxInfo)
//	GET  /_emulator/served/{name[:tag]}       what a sandbox of name would start from (Served), or 404
//	GET  /_emulator/stats[?since=N]           request counters and build timelines (Stats)
//	PUT  /_emulator/uploads/{templateID}/{hash}   where GET /templates/{id}/files/{hash} sends uploads
//
// The same controls exist as methods for in-process tests: FailBuild, FailBuildAt, HangBuild,
// ReleaseBuild, SetBuildDuration, FailNext, SetFaults, DropConnectionsDuringBuild,
// SetBuildConcurrency, SetTeamLimits, EchoRequestBodies, RefuseSteps, SeedReadyTemplate, SeedFailedTemplate, SeedForeignTemplate,
// SeedSandboxes, DeleteTemplateOutOfBand, Template, ServedBuild, Sandbox, Stats.
//
// Where the real API and its spec disagree, the emulator follows the real API: for instance
// unknown templates and builds answer 404 and bad bodies 400 on every template endpoint, and
// POST /v3/templates answers 409 and 429, although the spec declares none of those there.
// NewContractValidator tolerates exactly these statuses (and injected faults) and nothing else, so
// a client tested through it is held to the spec everywhere else.
package e2bemu
