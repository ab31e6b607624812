package e2b

import (
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// buildLog is the build's log, fed by E2B's log entries too.
type buildLog struct{ builders.BuildLog }

func (l *buildLog) entries(entries []buildLogEntry) {
	for _, e := range entries {
		l.Add(e.Message)
	}
}
