package opensandbox

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// maxCommandOutputLines keeps the tail of a long pip run in the result logs.
const maxCommandOutputLines = 200

// buildLog collects the lines reported as TemplateBuildResult.Logs. Nothing secret is ever added.
type buildLog struct{ lines []string }

func (l *buildLog) add(line string)                 { l.lines = append(l.lines, line) }
func (l *buildLog) addf(format string, args ...any) { l.add(fmt.Sprintf(format, args...)) }

func (l *buildLog) output(lines []string) {
	if len(lines) > maxCommandOutputLines {
		l.addf("... %d earlier output lines omitted", len(lines)-maxCommandOutputLines)
		lines = lines[len(lines)-maxCommandOutputLines:]
	}
	l.lines = append(l.lines, lines...)
}

// warnings logs the spec fields OpenSandbox ignores. cpu_count and memory_mb are skipped when they
// hold the core's defaults: Ensure fills those in, so they say nothing about what the user set.
func (l *buildLog) warnings(spec builders.TemplateSpec) {
	for _, w := range spec.Warnings(builders.ProviderOpenSandbox) {
		if (w.Field == "cpu_count" && spec.CPUCount == builders.DefaultSandboxCPUCount) ||
			(w.Field == "memory_mb" && spec.MemoryMB == builders.DefaultSandboxMemoryMB) {
			continue
		}
		l.add("warning: " + w.Message)
	}
}
