package opensandboxemu

import (
	"strconv"
	"strings"
)

// execd runs every command as `bash -c <command>` (OSB components/execd/pkg/runtime/command.go
// runCommand; sh where the image has no bash) and reports a non-zero exit as an error event with
// the exit code. What the command finds is what the sandbox's image holds (image_catalogue.go):
// a program it lacks is bash's "command not found", exit 127.

// exitCodeNotFound is what a shell returns for a command it cannot find.
const exitCodeNotFound = 127

// runInSandbox is the outcome of command in sb: each part of an `a && b` list in turn, until one
// fails; the user-database commands (sandbox_fs.go) change the sandbox, anything else runs as
// runIn does.
func (s *Server) runInSandbox(sb *Sandbox, command string) CommandResult {
	var out CommandResult
	for _, part := range strings.Split(command, " && ") {
		result, ok := CommandResult{}, false
		if hasProgram(s.imageFiles(sb.runsImage), commandProgram(part)) {
			s.mu.Lock()
			result, ok = sb.fs.userCommand(part)
			s.mu.Unlock()
		}
		if !ok {
			result = s.runIn(sb.runsImage, part, s.opts.CommandResult)
		}
		out.Stdout, out.Stderr, out.ExitCode = append(out.Stdout, result.Stdout...), append(out.Stderr, result.Stderr...), result.ExitCode
		if result.ExitCode != 0 {
			break
		}
	}
	return out
}

// runIn is the outcome of command in a sandbox of image: bash's own answer for a program the image
// lacks, else decide's (Options.CommandResult), else the few builtins shellResult knows.
func (s *Server) runIn(image, command string, decide func(string) CommandResult) CommandResult {
	if program := commandProgram(command); program != "" && !isShellBuiltin(program) && !hasProgram(s.imageFiles(image), program) {
		return CommandResult{ExitCode: exitCodeNotFound, Stderr: []string{"bash: line 1: " + program + ": " + notFoundMessage(program)}}
	}
	if decide != nil {
		return decide(command)
	}
	return shellResult(command)
}

// commandProgram is the program a command line runs first, past leading VAR=value assignments.
func commandProgram(command string) string {
	for _, word := range strings.Fields(command) {
		if !strings.Contains(word, "=") || strings.HasPrefix(word, "/") {
			return word
		}
	}
	return ""
}

func isShellBuiltin(program string) bool {
	switch program {
	case "echo", "exit", "true", "false", "cd", "export", "set", "unset", ":", ".", "source", "[", "test", "if", "for", "while":
		return true
	}
	return false
}

// notFoundMessage is how bash says it could not run program: a path names a file, a bare name is
// looked up on the PATH.
func notFoundMessage(program string) string {
	if strings.Contains(program, "/") {
		return "No such file or directory"
	}
	return "command not found"
}

// shellResult is what bash answers for the few builtins the emulator understands: echo prints its
// arguments, true/false and exit N set the exit code. Anything else the image holds succeeds
// without output.
func shellResult(command string) CommandResult {
	words := strings.Fields(command)
	if len(words) == 0 {
		return CommandResult{}
	}
	switch words[0] {
	case "echo":
		return CommandResult{Stdout: []string{strings.Join(words[1:], " ")}}
	case "false":
		return CommandResult{ExitCode: 1}
	case "exit":
		if len(words) > 1 {
			if code, err := strconv.Atoi(words[1]); err == nil {
				return CommandResult{ExitCode: code}
			}
		}
	}
	return CommandResult{}
}
