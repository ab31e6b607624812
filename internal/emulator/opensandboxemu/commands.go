package opensandboxemu

import (
	"context"
	"maps"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// execd runs every command as `bash -c <command>` (sh where the image has no bash: OSB
// components/execd/pkg/runtime/command.go getShell, runCommand) with the container's environment
// and the request's envs, in the request's cwd, as its uid and gid, and reports a non-zero exit as
// an error event with the exit code. The command runs in the sandbox's machine (sandboxos): what it
// finds is what the image holds and earlier commands left; a program it lacks is bash's "command
// not found", exit 127.

// runInSandbox runs command in sb as execd does.
func (s *Server) runInSandbox(ctx context.Context, sb *Sandbox, req runCommandRequest) CommandResult {
	env := maps.Clone(sb.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, req.Envs)
	p := sandboxos.Process{Dir: req.Cwd, Env: env, Override: s.override(), Service: req.Background}
	if p.Dir == "" {
		p.Dir = orRoot(sb.machine.Image().Workdir)
	}
	if req.UID != nil {
		uid := int(*req.UID)
		p.UID = &uid
		if req.GID != nil {
			gid := int(*req.GID)
			p.GID = &gid
		}
	}
	r := sb.machine.Run(ctx, *req.Command, p)
	return CommandResult{ExitCode: r.ExitCode, Stdout: splitOutput(r.Stdout), Stderr: splitOutput(r.Stderr), Serving: r.Serving}
}

func orRoot(dir string) string {
	if dir == "" {
		return "/"
	}
	return dir
}

// splitOutput is output as execd streams it: one event per line.
func splitOutput(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
