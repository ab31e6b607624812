// Package e2b builds templates on E2B (e2b.dev) through its template API
// (shared/specs/e2b-openapi.yml), with a small hand-written client: E2B publishes no Go SDK.
//
// A build is three calls, the same the E2B SDKs make in Template.build:
//
//  1. POST /v3/templates {name: template_id, cpuCount, memoryMB} registers the template (or a new
//     build of an existing one) and returns its template and build ids; the template is reported
//     as created right away (builders.Observer.Created) so the caller can save it before waiting;
//  2. POST /v2/templates/{templateID}/builds/{buildID} starts the build from image (registry
//     credentials are sent as fromImageRegistry and exchanged by E2B), with packages as a RUN
//     step and the start and ready commands;
//  3. GET /templates/{templateID}/builds/{buildID}/status is polled with backoff, collecting the
//     build logs through logsOffset, until the build is ready or failed.
//
// The template reference is the alias (template_id). It is usable when the alias resolves and
// the template has at least one tag, which E2B assigns only when a build succeeds.
//
// Environment: the provider's settings fall back to E2B_API_KEY, E2B_DOMAIN and E2B_API_URL, as the
// E2B SDKs do (Backend.Settings); this package reads no environment variable.
package e2b
