package e2b

// The start and ready commands of E2B's code-interpreter template, used when a build from image
// (or a Dockerfile without CMD) sets neither start_cmd nor ready_cmd. They come from
// e2b-dev/code-interpreter template/template.py:
//
//	set_start_cmd("sudo /root/.jupyter/start-up.sh", wait_for_url("http://localhost:49999/health"))
//
// start-up.sh starts Jupyter and the code-interpreter server on port 49999; the ready command is
// what the SDKs' waitForURL(url) renders (js-sdk template/readycmd.ts, status code 200). An image
// that is not built on e2bdev/code-interpreter must set start_cmd (and ready_cmd) itself.
const (
	DefaultStartCmd = "sudo /root/.jupyter/start-up.sh"
	DefaultReadyCmd = `curl -s -o /dev/null -w "%{http_code}" http://localhost:49999/health | grep -q "200"`
)

// dockerfileReadyCmd is the ready command the SDKs' fromDockerfile pairs with a CMD or
// ENTRYPOINT: waitForTimeout(20_000) (js-sdk template/dockerfileParser.ts).
const dockerfileReadyCmd = "sleep 20"
