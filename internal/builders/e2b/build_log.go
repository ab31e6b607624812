package e2b

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// buildLog is the build's log, fed by E2B's log entries too.
type buildLog struct{ builders.BuildLog }

func (l *buildLog) entries(entries []buildLogEntry) {
	for _, e := range entries {
		l.AddOutput("", e.Message)
	}
}

// logEntries are the log entries of a status answer: the first statusLogsLimit, the most a poll
// asks for. A server answering more (16 MiB of {}) would otherwise cost a struct each; the poll
// reads on from the entries it kept, so none is lost.
type logEntries []buildLogEntry

func (l *logEntries) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	switch {
	case err != nil:
		return err
	case tok == nil: // null
		*l = nil
		return nil
	case tok != json.Delim('['):
		return fmt.Errorf("log entries: %v, not an array", tok)
	}
	*l = (*l)[:0]
	for len(*l) < statusLogsLimit && dec.More() {
		var e buildLogEntry
		if err := dec.Decode(&e); err != nil {
			return err
		}
		*l = append(*l, e)
	}
	return nil
}
