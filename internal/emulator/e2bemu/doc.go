// Package e2bemu is an in-memory E2B API for tests and the demo. It follows E2B's published OpenAPI
// spec (shared/specs/e2b-openapi.yml) for the template endpoints: create (v3), build start (v2),
// build status with logs, aliases, tags, list, get, update and delete, with X-API-Key auth and the
// spec's Error JSON. Builds run a waiting → building → ready | error state machine on a clock
// tests can control, and faults can be injected (failed builds, 5xx, 429 with Retry-After,
// latency, hung builds, dropped connections). Every request is recorded with the key redacted.
//
// Where the real API and its spec disagree, the emulator follows the real API: unknown templates
// and builds answer 404 and bad bodies 400 on every template endpoint, although the spec declares
// those statuses only on some. NewContractValidator tolerates exactly these (and injected faults) and
// nothing else, so a client tested through it is held to the spec everywhere else.
package e2bemu
