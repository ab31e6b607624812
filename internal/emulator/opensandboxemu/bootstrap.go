package opensandboxemu

import (
	"context"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// A sandbox's process is OSB components/execd/bootstrap.sh: it starts execd, then the entrypoint
// in the background, and exits with it (`"$@" & CMD_PID=$!; wait "$CMD_PID"; exit $?`). So an
// entrypoint the image cannot run, or one that ends, ends the sandbox. The entrypoint runs in the
// sandbox's machine as a service: a program that serves keeps it running (sandboxos.Process.Service).

// entrypointExit runs sb's entrypoint and says whether it ends, and with which code.
func (s *Server) entrypointExit(sb *Sandbox) (code int, ends bool) {
	if len(sb.Entrypoint) == 0 {
		return 0, false
	}
	img := sb.machine.Image()
	r := sb.machine.Exec(context.Background(), sb.Entrypoint, sandboxos.Process{User: img.User, Dir: orRoot(img.Workdir), Env: sb.Env, Service: true})
	if r.Serving {
		return 0, false
	}
	return r.ExitCode, true
}

// endWith records that the sandbox's entrypoint exited, as the Docker runtime reports an exited
// container (docker_service.py _container_to_sandbox). Callers hold mu.
func (sb *Sandbox) endWith(code int) {
	if code == 0 {
		sb.State, sb.Reason, sb.Message = StateTerminated, "CONTAINER_EXITED", "Sandbox container exited successfully."
		return
	}
	sb.State, sb.Reason = StateFailed, "CONTAINER_EXITED_ERROR"
	sb.Message = fmt.Sprintf("Sandbox container exited with code %d.", code)
}
