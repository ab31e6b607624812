package e2bemu

import (
	"fmt"
	"strings"
)

// stepProblem is what the orchestrator's command for a step refuses before running anything
// (orchestrator/pkg/template/build/commands): the reason the build fails with at that step, or "".
// The type is matched in upper case (executor.go getCommand).
func (s *Server) stepProblem(step TemplateStep) string {
	args := step.Args
	switch kind := strings.ToUpper(step.Type); kind {
	case "RUN": // run.go: [command optional_user]
		if len(args) < 1 {
			return "RUN requires command argument"
		}
	case "ENV", "ARG": // env.go: [key1 value1 key2 value2 ...]
		switch {
		case len(args) == 0:
			return kind + " does not support passing no arguments"
		case len(args)%2 != 0:
			return kind + " requires both a key and value arguments"
		}
	case "USER": // user.go: [username, optional_add_to_sudo]
		if len(args) < 1 {
			return "USER requires a username argument"
		}
	case "WORKDIR": // workdir.go: [path]
		if len(args) < 1 {
			return "WORKDIR requires a path argument"
		}
	case "COPY", "ADD": // copy.go: [localPath containerPath optional_owner optional_permissions], uploaded files
		switch {
		case len(args) < 2:
			return "COPY requires a local path and a container path argument"
		case step.FilesHash == nil || *step.FilesHash == "":
			return kind + " requires files hash to be set"
		case !s.files[*step.FilesHash]:
			return "failed to open files object from storage: object does not exist"
		}
	default:
		return fmt.Sprintf("failed to get command for step %s: command type %s is not implemented", step.Type, kind)
	}
	return ""
}
