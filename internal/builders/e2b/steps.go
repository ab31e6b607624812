package e2b

import (
	"fmt"
	"strconv"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Step types of the SDKs' Template builder (js-sdk template/types.ts InstructionType).
const (
	stepRun     = "RUN"
	stepCopy    = "COPY"
	stepEnv     = "ENV"
	stepWorkdir = "WORKDIR"
	stepUser    = "USER"
)

// runStep is the SDKs' runCmd: args are the command and, optionally, the user to run it as.
func runStep(command string, user ...string) templateStep {
	return templateStep{Type: stepRun, Args: append([]string{command}, user...)}
}

// sdkStep encodes one step exactly as E2B's JavaScript SDK 2.51 encodes the same call
// (js-sdk template/index.ts), so E2B computes the same layer hash (orchestrator phases/steps/hash.go:
// type, args joined by spaces, filesHash) and a template built here shares cached layers with one
// built by the SDK. Packages are quoted only where the shell would split them (the SDK does not
// quote them at all; a name valid at plan time never needs it). A file step's source and
// filesHash are filled in by addSteps, which reads its files.
func sdkStep(s builders.BuildStep) templateStep {
	var step templateStep
	switch s.Kind() {
	case builders.StepRun:
		step = runStep(s.Run.Command, optional(s.Run.User)...)
	case builders.StepApt: // aptInstall: as root
		step = runStep(s.Apt.Command(), "root")
	case builders.StepPip: // pipInstall(packages, {g}): g (default) installs as root, else --user
		if s.Pip.IsGlobal() {
			step = runStep("pip install "+builders.QuoteEach(s.Pip.Packages), "root")
		} else {
			step = runStep("pip install --user " + builders.QuoteEach(s.Pip.Packages))
		}
	case builders.StepNpm: // npmInstall(packages, {g}): -g as root
		if s.Npm.Global {
			step = runStep(s.Npm.Command(), "root")
		} else {
			step = runStep(s.Npm.Command())
		}
	case builders.StepGitClone: // gitClone(url, path, {branch, depth, user})
		step = runStep(s.GitClone.Command(), optional(s.GitClone.User)...)
	case builders.StepEnv: // setEnvs(envs): [key, value, ...]
		step = templateStep{Type: stepEnv}
		for _, kv := range s.SortedEnv() {
			step.Args = append(step.Args, kv[0], kv[1])
		}
	case builders.StepWorkdir:
		step = templateStep{Type: stepWorkdir, Args: []string{*s.Workdir}}
	case builders.StepUser:
		step = templateStep{Type: stepUser, Args: []string{*s.User}}
	case builders.StepFile: // copy(src, dest, {user, mode}): [src, dest, user, mode as 4 octal digits]
		step = templateStep{Type: stepCopy, Args: []string{"", s.File.Destination, s.File.Owner, padOctal(s.File.Mode)}}
	}
	step.Force = s.Force
	return step
}

// padOctal is the SDK's padOctal(mode): "644" is "0644"; no mode is "".
func padOctal(mode string) string {
	n, err := strconv.ParseUint(mode, 8, 32)
	if err != nil || n == 0 {
		return ""
	}
	return fmt.Sprintf("%04o", n)
}

func optional(user string) []string {
	if user == "" {
		return nil
	}
	return []string{user}
}
