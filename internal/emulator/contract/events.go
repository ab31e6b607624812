package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
)

// checkEvents validates a text/event-stream body the way the backend sends it: one JSON event a
// line, each matching Options.EventSchema.
func (v *Validator) checkEvents(where string, stream []byte) {
	scanner := bufio.NewScanner(bytes.NewReader(stream))
	for scanner.Scan() {
		line := bytes.TrimSpace(scanner.Bytes())
		if len(line) == 0 {
			continue
		}
		var event any
		if err := json.Unmarshal(line, &event); err != nil {
			v.violation("%s: stream line %q is not JSON: %v", where, line, err)
			continue
		}
		if err := v.events.VisitJSON(event); err != nil {
			v.violation("%s: event %s: %v", where, line, err)
		}
	}
}
