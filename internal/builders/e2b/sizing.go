package e2b

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Sizing rules of E2B, the only backend that sizes templates: cpuCount 1 or an even number up to
// 32, memoryMB an even number from 128 (packages/api/internal/team/limits.go and
// internal/constants/templates.go in e2b-dev/infra; a violation is a 400 at POST /v3/templates).
// A team's own maximum may be lower; only E2B knows it.
const (
	MinCPUCount = 1
	MaxCPUCount = 32
	MinMemoryMB = 128
)

// CPUCountProblem says what is wrong with a vCPU count, or "" when E2B accepts it.
func CPUCountProblem(n int64) string {
	switch {
	case n < MinCPUCount || n > MaxCPUCount:
		return fmt.Sprintf("must be between %d and %d, got %d", MinCPUCount, MaxCPUCount, n)
	case n != 1 && n%2 != 0:
		return fmt.Sprintf("must be 1 or an even number (E2B sizes sandboxes that way), got %d", n)
	}
	return ""
}

// MemoryMBProblem says what is wrong with a memory size, or "" when E2B accepts it.
func MemoryMBProblem(n int64) string {
	switch {
	case n < MinMemoryMB:
		return fmt.Sprintf("must be at least %d, got %d", MinMemoryMB, n)
	case n%2 != 0:
		return fmt.Sprintf("must be an even number of MiB, got %d", n)
	}
	return ""
}

// StartReadyWithBaseTemplate is the rule for commands on a base template: E2B replaces the base's
// start metadata as a whole when either command is set (orchestrator/pkg/template/build/phases/
// finalize/builder.go), so setting one alone would silently drop the base's start command.
const StartReadyWithBaseTemplate = "with base_template, set start_cmd and ready_cmd both or neither; " +
	"E2B replaces the base template's start and ready commands together, so setting one alone drops the other"

// sizingAndCommands are E2B's rules on the sizing and, on a base template, the commands of a spec.
func sizingAndCommands(s builders.TemplateSpec) builders.FieldErrors {
	var errs builders.FieldErrors
	if problem := CPUCountProblem(int64(s.CPUCount)); s.CPUCount != 0 && problem != "" {
		errs = append(errs, builders.FieldError{Field: "cpu_count", Message: problem})
	}
	if problem := MemoryMBProblem(int64(s.MemoryMB)); s.MemoryMB != 0 && problem != "" {
		errs = append(errs, builders.FieldError{Field: "memory_mb", Message: problem})
	}
	if s.BaseTemplate != "" && (s.StartCmd == nil) != (s.ReadyCmd == "") {
		field := "start_cmd"
		if s.StartCmd == nil {
			field = "ready_cmd"
		}
		errs = append(errs, builders.FieldError{Field: field, Message: StartReadyWithBaseTemplate,
			Reads: []string{"base_template", "start_cmd", "ready_cmd"}})
	}
	return errs
}
