package opensandboxemu

import (
	"strconv"
	"strings"
)

// shellResult is what execd's shell would answer for the few commands the emulator understands
// without Options.CommandResult: echo prints its arguments, true/false and exit N set the exit
// code. Any other command (pip install included) succeeds without output.
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
