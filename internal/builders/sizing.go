package builders

import "fmt"

// Sizing rules of the only backend that sizes templates, E2B: cpuCount 1 or an even number up to
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
