// Package e2b builds templates on E2B (e2b.dev) through its template API
// (shared/specs/e2b-openapi.yml), with a small hand-written client: E2B publishes no Go SDK.
//
// A build is the calls the E2B SDKs make in Template.build (build.go):
//
//  1. POST /v3/templates {name: template_id, tags, cpuCount, memoryMB} registers the template (or a
//     new build of an existing one) with its tags: `default` (unless it is a candidate), the
//     spec's own and inputs-<fingerprint>, which records what the build is made from (inputs.go).
//     It returns the template and build ids; the template is reported as created right away
//     (builders.Observer.Created) so the caller can save it before waiting. A 429 of the team's
//     build limit is waited out (concurrency.go);
//  2. the files of file steps E2B does not have yet are uploaded (steps_files.go);
//  3. POST /v2/templates/{templateID}/builds/{buildID} starts the build from image (registry
//     credentials are sent as fromImageRegistry and exchanged by E2B), a base template or a
//     Dockerfile, with packages and the steps as E2B's SDK encodes them (steps.go) and the start
//     and ready commands;
//  4. GET /templates/{templateID}/builds/{buildID}/status is polled with backoff (poll.go),
//     collecting the build logs through logsOffset, until the build is ready or failed.
//
// The template reference is the alias (template_id). It is usable when alias:default resolves to
// a ready build of this team's template (lookup.go): E2B assigns tags when a build is requested
// and keeps them when it fails, so a tag alone proves nothing. Tags move between ready builds
// without building (tags.go: builders.Tagger); Serving tells which build consumers start (served.go).
//
// Checks (sandbox_starter.go: builders.SandboxStarter) start a sandbox from "alias:<build id>" as
// the SDK's Sandbox.create does and run commands through the sandbox's envd, its Connect process
// service (envd.go, envdprocess), reached as the SDKs reach it: E2B_SANDBOX_URL when set, else
// https://sandbox.<domain> or https://49983-<sandbox id>.<domain>, routed by E2b-Sandbox-Id.
//
// Environment: the provider's settings fall back to E2B_API_KEY, E2B_DOMAIN, E2B_API_URL and
// E2B_SANDBOX_URL, as the E2B SDKs do (Backend.Settings); this package reads no environment variable.
package e2b
