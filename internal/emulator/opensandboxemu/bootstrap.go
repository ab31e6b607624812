package opensandboxemu

import (
	"fmt"
	"strings"
)

// A sandbox's process is OSB components/execd/bootstrap.sh: it starts execd, then the entrypoint
// in the background, and exits with it (`"$@" & CMD_PID=$!; wait "$CMD_PID"; exit $?`). So an
// entrypoint the image cannot run, or one that ends, ends the sandbox.

// shortLived are programs that end at once, with their exit code; anything else the image holds
// is taken to keep running (tail -f, sleep infinity, servers).
var shortLived = map[string]int{"true": 0, "echo": 0, "false": 1, "exit": 0}

// entrypointExit says whether entrypoint ends in a sandbox of image, and with which code.
func (s *Server) entrypointExit(image string, entrypoint []string) (code int, ends bool) {
	if len(entrypoint) == 0 {
		return 0, false
	}
	program := entrypoint[0]
	if (program == "sh" || program == "bash" || program == "/bin/sh" || program == "/bin/bash") &&
		len(entrypoint) == 3 && entrypoint[1] == "-c" {
		program = firstWord(entrypoint[2])
	}
	base := program[strings.LastIndex(program, "/")+1:]
	if code, ok := shortLived[base]; ok {
		return code, true
	}
	if !hasProgram(s.imageFiles(image), program) {
		return exitCodeNotFound, true
	}
	return 0, false
}

// firstWord is the program a simple shell script starts: its first word after an optional exec.
func firstWord(script string) string {
	words := strings.Fields(script)
	if len(words) > 1 && words[0] == "exec" {
		words = words[1:]
	}
	if len(words) == 0 {
		return "true" // an empty script ends at once
	}
	return words[0]
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
