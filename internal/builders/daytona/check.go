package daytona

import (
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// mbPerGB: Daytona sizes memory in whole GB (CreateSnapshot.memory, an integer); the SDK's docs
// and the server's quotas count GiB, so memory_mb is a multiple of 1024.
const mbPerGB = 1024

// check adds Daytona's own rules, so a build never fails on what a plan can tell: its sizing
// units, and what a Dockerfile line cannot hold (each step is one line of the Dockerfile the SDK's
// Image writes: a newline would start another instruction).
func check(spec builders.TemplateSpec) builders.FieldErrors {
	var errs builders.FieldErrors
	if spec.CPUCount < 0 {
		errs = append(errs, builders.FieldError{Field: "cpu_count", Message: fmt.Sprintf("must be at least 1 (Daytona counts whole CPU cores), got %d", spec.CPUCount)})
	}
	if spec.MemoryMB < 0 || spec.MemoryMB%mbPerGB != 0 {
		errs = append(errs, builders.FieldError{Field: "memory_mb",
			Message: fmt.Sprintf("must be a positive multiple of %d: Daytona sizes memory in whole GB, got %d", mbPerGB, spec.MemoryMB)})
	}
	for _, step := range spec.BuildSteps() {
		if problem := stepProblem(step.BuildStep); problem != "" {
			errs = append(errs, builders.FieldError{Field: step.Field, Message: problem})
		}
	}
	if cmd, _ := spec.StartCommand(""); needsBuild(spec) && strings.ContainsAny(cmd, "\"\\\n\r") {
		errs = append(errs, builders.FieldError{Field: "start_cmd", Reads: []string{"packages", "steps"},
			Message: "must not hold a double quote, a backslash or a line break when the template has packages or steps: Daytona's " +
				"SDK writes it into the Dockerfile's ENTRYPOINT [\"/bin/sh\", \"-c\", \"...\"] without escaping"})
	}
	return errs
}

// stepProblem is what keeps a step from being one Dockerfile line.
func stepProblem(s builders.BuildStep) string {
	const lineBreaks = "\n\r"
	texts := map[string][]string{}
	switch s.Kind() {
	case builders.StepFile:
		if strings.ContainsAny(s.File.Destination, " \t\n\r") {
			return "its destination must not hold whitespace: Daytona builds it as a Dockerfile COPY line"
		}
	case builders.StepRun:
		texts["its command"] = []string{s.Run.Command}
	case builders.StepGitClone:
		texts["its url, branch and path"] = []string{s.GitClone.URL, s.GitClone.Branch, s.GitClone.Path}
	case builders.StepWorkdir:
		texts["its directory"] = []string{*s.Workdir}
	case builders.StepUser:
		texts["its user"] = []string{*s.User}
	case builders.StepEnv:
		for _, kv := range s.SortedEnv() {
			texts[kv[0]+"'s value"] = append(texts[kv[0]+"'s value"], kv[1])
		}
	}
	for what, values := range texts {
		for _, v := range values {
			if strings.ContainsAny(v, lineBreaks) {
				return what + " must be one line: Daytona builds each step as one Dockerfile instruction (the SDK's Image), " +
					"which ends at a line break; join commands with && or ;"
			}
		}
	}
	return ""
}
