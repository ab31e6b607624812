package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// usage is -help: what the command prints, its flags, and each backend's control path.
func usage(flags *flag.FlagSet) {
	w := flags.Output()
	_, _ = fmt.Fprint(w, `Usage: sandbox-emulator [flags]

Serves, on 127.0.0.1, emulators of every backend the provider talks to, each on its own port, and
prints one NAME=value line per setting the provider reads, then "`+readyLine+`".
Lines starting with # are comments. To use them from a shell:

  sandbox-emulator >emulator.env &
  until grep -q '^# ready' emulator.env; do sleep 0.1; done
  set -a; . ./emulator.env; set +a

Flags:
`)
	flags.PrintDefaults()
	printControls(w)
}

// backendControls are one emulator's control endpoints, served by its own handler under
// /_emulator/ of its base URL: the value of setting, with scheme before it (for a bare host:port)
// and without path after it (for a URL that names an endpoint).
type backendControls struct {
	backend, setting, scheme, path, note string
	endpoints                            []control
}

// control is one endpoint with an example body (JSON, or empty), as the help shows it and as
// TestEveryDocumentedControlAnswers sends it, in this order.
type control struct{ method, path, body, what string }

var controls = []backendControls{
	{backend: "E2B", setting: "E2B_API_URL", endpoints: []control{
		{"POST", "fail-build", `{"template":"py","reason":"no space left","step":"base"}`,
			`the next build of py ("" or absent: any template) ends in error with reason, at step (default base)`},
		{"POST", "hang-builds", `{"template":"py"}`, `builds of py ("": all) stay building ...`},
		{"POST", "release-builds", `{"template":"py"}`, `... until released`},
		{"POST", "build-duration", `{"duration":"2s"}`, `how long builds started from now on take (as -build-duration)`},
		{"POST", "build-concurrency", `{"limit":5}`, `the team's concurrent build limit: 429 beyond it (0: none)`},
		{"POST", "team-limits", `{"maxCpu":16,"maxMemoryMb":16384}`,
			`the team's maxima for cpuCount and memoryMB: 400 above them (0: E2B's default tier, 8 and 8192)`},
		{"POST", "echo-request-bodies", `{"enabled":true}`, `error answers repeat the request body, as some servers do`},
		{"POST", "refuse-steps", `{"enabled":true}`, `build starts with steps answer 400 "steps are not supported", as some E2B-compatible servers do`},
		{"POST", "images", `{"ref":"ghcr.io/acme/app:1","family":"alpine","programs":["node"],"users":["app"],"entrypoint":["node","/app/server.js"]}`,
			`builds from ref pull and provision the image as declared (family debian, ubuntu, alpine or distroless; programs, users, user, workdir, entrypoint, env), as -image does`},
		{"POST", "seed/template", `{"name":"py"}`, `a template with a ready build tagged default, as an earlier pipeline leaves it`},
		{"POST", "seed/failed-template", `{"name":"py","reason":"no space left"}`,
			`a newer build of py, tagged default, that failed (py is created when missing)`},
		{"POST", "seed/foreign-template", `{"name":"shared","public":true}`, `another team's promoted template named shared`},
		{"POST", "seed/sandboxes", `{"template":"py","count":1}`, `sandboxes running from py: deleting it answers 400 until count is 0`},
		{"GET", "templates/py", ``, `what the emulator holds for template py (by id or alias)`},
		{"GET", "served/py", ``, `what py (or py:tag) resolves to, as a sandbox create: the newest default assignment whose build is ready, its sizing and start body`},
		{"GET", "stats?since=0", ``, `requests by route from request N on, and each build's timeline (internal/bench)`},
		{"POST", "drop-connections", `{"template":"py","count":2}`, `the next count status polls of py's builds lose their connection`},
		{"POST", "fail-requests", `{"count":1,"status":503}`, `the next count API requests answer status (429 with Retry-After: 1)`},
		{"POST", "faults", `{"rate":0.2,"seed":1,"status":[500,429],"retry_after":"1s","latency":"100ms"}`,
			`a share of API requests fails (statuses in turn), every request is slowed; {} clears`},
	}, note: `Also PUT /_emulator/uploads/...: where GET /templates/{id}/files/{hash} sends the SDK's uploads; ` +
		`GET /_emulator/sandboxes/{id}: the template and build a sandbox (POST /sandboxes) started from, its metadata and when its timeout ends it; ` +
		`GET /_emulator/sandboxes: every running sandbox. Requests with an E2b-Sandbox-Id header go to that sandbox's envd (E2B_SANDBOX_URL).`},
	{backend: "OpenSandbox", setting: "OPEN_SANDBOX_DOMAIN", scheme: "http://", endpoints: []control{
		{"PUT", "settings", `{"ignoreSnapshotNameFilter":true,"maxSandboxTimeoutSeconds":3600}`,
			`an old server that ignores GET /snapshots?name=; the server's sandbox timeout cap (0: none); answers all settings`},
		{"POST", "images", `{"ref":"ghcr.io/acme/app:1","family":"alpine","programs":["node"],"users":["app"],"entrypoint":["node","/app/server.js"]}`,
			`sandboxes of ref run the image as declared, as -image does; undeclared private images are taken to be Debian with Python (as python:3.12)`},
		{"POST", "snapshots", `{"name":"py","state":"Ready","image":"opensandbox/code-interpreter:v1.1.0"}`,
			`seed a snapshot, as an earlier build leaves it; answers {"id"}`},
		{"GET", "sandboxes", ``, `every sandbox, deleted ones included, with its entrypoint, state, reason and execd calls in order`},
		{"GET", "snapshots", ``, `every snapshot, deleted ones included`},
		{"GET", "served/py", ``, `the newest Ready snapshot named py: its image, the commands run before the capture, its sandbox's entrypoint`},
		{"POST", "faults", `{"method":"POST","pathPrefix":"/sandboxes","status":503,"count":1,"retryAfter":"","echoBody":false}`,
			`the next count matching requests answer status (any method when empty; path with or without /v1)`},
	}},
	{backend: "Daytona", setting: "DAYTONA_API_URL", path: "/api", endpoints: []control{
		{"POST", "images", `{"ref":"ghcr.io/acme/app:1","family":"alpine","programs":["node"]}`,
			`snapshots of ref (and builds FROM it) hold the image as declared, as -image does`},
		{"POST", "private-images", `{"ref":"ghcr.io/acme/app","username":"bot","password":"s3cret"}`,
			`ref (a repository: every tag) pulls only through an organization registry entry matching its registry with these credentials`},
		{"POST", "clock", `{"advance":"10m"}`, `move the emulator's clock on: the activation cooldown (10 minutes after a deactivation) passes; "-11m" moves it back`},
		{"PUT", "settings", `{"pollsPerState":1}`, `reads a snapshot stays in each of pending, pulling, building, removing (-1: held there until set again); answers it`},
		{"GET", "snapshots", ``, `every snapshot, removed ones included`},
		{"GET", "sandboxes", ``, `every sandbox with the toolbox commands run in it and their results`},
		{"GET", "registries", ``, `the organization's registry entries (no passwords)`},
		{"GET", "stats", ``, `requests by route, live snapshots by state, sandboxes not destroyed`},
		{"POST", "faults", `{"method":"POST","pathPrefix":"/snapshots","status":503,"count":1}`,
			`the next count matching requests answer status (any method when empty; path without /api)`},
	}, note: `POST /_emulator/snapshots/{id or name}/expire: what the 14-day deactivation cron does, active -> inactive now; ` +
		`GET /_emulator/served/{name}: the active snapshot a sandbox of name starts from, with its image or Dockerfile and what the build set.`},
	{backend: "AWS (ECR, AgentCore control and data plane)", setting: "AWS_ENDPOINT_URL_ECR", endpoints: []control{
		{"PUT", "code-interpreters/analysis-a1b2c3d4e5", `{"status":"READY","failureReason":""}`,
			`a code interpreter in this state (READY, CREATING, CREATE_FAILED, ...)`},
		{"POST", "deny", `{"operation":"GetCodeInterpreter"}`, `the operation answers AccessDeniedException`},
		{"GET", "requests", ``, `every request received: operation, access key id, region, error code`},
		{"GET", "code-interpreter-sessions", ``, `the live code interpreter sessions: neither stopped nor past their sessionTimeoutSeconds`},
		{"PUT", "command-duration", `{"duration":"0s"}`, `each executeCommand takes this long before its result, as a long command does`},
		{"POST", "faults", `{"count":1,"status":503,"operation":"GetAuthorizationToken","echoBody":false}`,
			`the next count requests (of operation, when set) fail with status 429 or 5xx; with "inStream":true, ` +
				`InvokeCodeInterpreter's event stream carries the error instead`},
	}, note: `POST /_emulator/credentials {"accessKeyId":"...","secretAccessKey":"..."} replaces the printed pair. ` +
		`AgentCore's data plane (code interpreter sessions, executeCommand) answers at $AWS_ENDPOINT_URL_BEDROCK_AGENTCORE.`},
	{backend: "Google token endpoint", setting: "GOOGLE_TOKEN_URL", path: "/token", endpoints: []control{
		{"POST", "service-accounts", ``, `a new service account's key file, trusted like the printed one (token_uri: this server)`},
		{"GET", "issued", ``, `every access token issued: token, client_email, scope`},
		{"POST", "faults", `{"count":1,"status":503,"error":"","errorDescription":"","echoBody":false}`,
			`the next count token requests fail with status and this OAuth2 error (default by status)`},
	}},
}

func printControls(w io.Writer) {
	_, _ = fmt.Fprint(w, "\nControl paths: no credentials, never faulted, not counted as API requests.\n")
	for _, b := range controls {
		base := b.scheme + "$" + b.setting
		if b.path != "" {
			base = fmt.Sprintf("%s without %s", base, b.path)
		}
		_, _ = fmt.Fprintf(w, "\n  %s, under (%s)/_emulator/\n", b.backend, base)
		for _, c := range b.endpoints {
			_, _ = fmt.Fprintf(w, "    %-4s %s %s\n         %s\n", c.method, c.path, c.body, c.what)
		}
		if b.note != "" {
			_, _ = fmt.Fprintf(w, "    %s\n", b.note)
		}
	}
	_, _ = fmt.Fprint(w, "\nFor example: curl -X POST -d '{\"template\":\"py\",\"reason\":\"boom\"}' \"$E2B_API_URL/_emulator/fail-build\"\n")
}

// controlURL is the full URL of c on backend b, given the printed settings.
func (b backendControls) controlURL(settings map[string]string, c control) string {
	return b.scheme + strings.TrimSuffix(settings[b.setting], b.path) + "/_emulator/" + c.path
}
