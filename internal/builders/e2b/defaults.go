package e2b

import "strings"

// The start and ready commands of E2B's code-interpreter image on Docker Hub (e2bdev/code-interpreter),
// used when a build from image sets no start_cmd: the design's default. They come from
// e2b-dev/code-interpreter template/build_docker.py (set_start_cmd with wait_for_url on the health
// endpoint); the ready command is what the SDKs' waitForURL(url) renders (js-sdk
// template/readycmd.ts, status code 200).
//
// /root/.jupyter/start-up.sh exists in no other image: on anything not built from
// e2bdev/code-interpreter the build fails at its finalize step (exit 127, e2b-dev/E2B#827), so
// such an image needs its own start_cmd, or start_cmd = "" for none.
const (
	DefaultStartCmd = "sudo --preserve-env=E2B_LOCAL /root/.jupyter/start-up.sh"
	DefaultReadyCmd = `curl -s -o /dev/null -w "%{http_code}" http://localhost:49999/health | grep -q "200"`
)

// dockerfileReadyCmd is the ready command the SDKs' fromDockerfile pairs with a CMD or
// ENTRYPOINT: waitForTimeout(20_000) (js-sdk template/dockerfileParser.ts).
const dockerfileReadyCmd = "sleep 20"

// defaultStartCmdHint explains a failed build whose start or ready command was the default.
const defaultStartCmdHint = "the start command was the default, E2B's code-interpreter start script (" + DefaultStartCmd +
	"), which only images built from e2bdev/code-interpreter contain: set start_cmd to your image's start command, " +
	`or start_cmd = "" to start nothing`

// failedAtStartCmd tells whether a build's failure reason is its start or ready command, as the
// orchestrator reports it (orchestrator/pkg/template/build/phases/finalize/builder.go: "error
// running start command", "start command failed", "ready command failed").
func failedAtStartCmd(texts ...string) bool {
	for _, t := range texts {
		t = strings.ToLower(t)
		if strings.Contains(t, "start command") || strings.Contains(t, "ready command") {
			return true
		}
	}
	return false
}
