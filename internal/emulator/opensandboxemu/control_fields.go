package opensandboxemu

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Checks of control values: each problem names the field and what it must be, so a 400 says
// which value to fix; "" when the value is fine.

// problem is the fault's first problem.
func (f Fault) problem() string {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	switch {
	case f.Status < 400 || f.Status > 599: // net/http writes 100..999 only, and a fault is an error
		return fmt.Sprintf("status must be an error status (4xx or 5xx), not %d", f.Status)
	case f.Count < 1:
		return fmt.Sprintf("count must be >= 1, not %d", f.Count)
	case f.Method != "" && !slices.Contains(methods, f.Method):
		return fmt.Sprintf("method must be empty (any) or one of %s, not %q", strings.Join(methods, ", "), f.Method)
	case f.PathPrefix != "" && !strings.HasPrefix(f.PathPrefix, "/"):
		return fmt.Sprintf("pathPrefix must be empty (any) or start with /, not %q", f.PathPrefix)
	}
	if seconds, err := strconv.Atoi(f.RetryAfter); f.RetryAfter != "" && (err != nil || seconds < 0) {
		return fmt.Sprintf("retryAfter must be a number of seconds >= 0, not %q", f.RetryAfter)
	}
	return ""
}

// snapshotState is a state a seeded snapshot can be in.
func snapshotState(state string) string {
	states := []string{SnapshotCreating, SnapshotReady, SnapshotFailed, SnapshotDeleting}
	if !slices.Contains(states, state) {
		return fmt.Sprintf("state must be one of %s, not %q", strings.Join(states, ", "), state)
	}
	return ""
}

func (st Settings) problem() string {
	if st.MaxSandboxTimeoutSeconds != nil && *st.MaxSandboxTimeoutSeconds < 0 {
		return fmt.Sprintf("maxSandboxTimeoutSeconds must be >= 0 (0: no cap), not %d", *st.MaxSandboxTimeoutSeconds)
	}
	return ""
}
