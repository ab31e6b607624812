// Package e2bemu is an in-memory E2B API for tests and the demo. It follows E2B's published OpenAPI
// spec (shared/specs/e2b-openapi.yml) for the template endpoints: create (v3), build start (v2),
// build status with logs, aliases, tags, list, get, update and delete, with X-API-Key auth and the
// spec's Error JSON. Builds run a waiting → building → ready | error state machine, and faults can
// be injected (failed builds, 5xx, 429 with Retry-After, latency, hung builds, dropped connections).
package e2bemu
