package e2bemu

import (
	"fmt"
	"strconv"
	"time"
)

// Checks of control fields: each names the field and what it must be, so a 400 says which value
// to fix. A control answers the first problem of its fields (firstProblem).

func firstProblem(problems ...string) string {
	for _, p := range problems {
		if p != "" {
			return p
		}
	}
	return ""
}

func required(field, value string) string {
	if value == "" {
		return field + " is required"
	}
	return ""
}

func nonNegative(field string, value int) string {
	if value < 0 {
		return fmt.Sprintf("%s must be >= 0, not %d", field, value)
	}
	return ""
}

// errorStatus: net/http writes 100..999 only, and a fault is an error.
func errorStatus(field string, status int) string {
	if status < 400 || status > 599 {
		return fmt.Sprintf("%s must be an error status (4xx or 5xx), not %d", field, status)
	}
	return ""
}

// errorStatuses is errorStatus of each status listed, naming the first wrong one by its index.
func errorStatuses(field string, statuses []int) string {
	for i, status := range statuses {
		if p := errorStatus(fmt.Sprintf("%s[%d]", field, i), status); p != "" {
			return p
		}
	}
	return ""
}

func fraction(field string, value float64) string {
	if value < 0 || value > 1 {
		return fmt.Sprintf("%s must be between 0 and 1, not %g", field, value)
	}
	return ""
}

// duration parses a Go duration of at least 0 ("" is 0).
func duration(field, value string) (time.Duration, string) {
	if value == "" {
		return 0, ""
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return 0, fmt.Sprintf("%s must be a Go duration >= 0 such as \"2s\", not %q", field, value)
	}
	return d, ""
}

// templateName is a name a template can have: "alias" or "namespace/alias", no tag.
func templateName(field, value string) string {
	if p := required(field, value); p != "" {
		return p
	}
	if _, tag, err := parseName(value); err != nil || tag != "" {
		return fmt.Sprintf("%s must be a template name (lower-case letters, digits, - and _; namespace/ optional, no tag), not %q", field, value)
	}
	return ""
}

// buildStep is a step a build reason can name: "base", "finalize" or a step number from 1.
func buildStep(field, value string) string {
	if n, err := strconv.Atoi(value); value == "base" || value == "finalize" || (err == nil && n >= 1) {
		return ""
	}
	return fmt.Sprintf("%s must be \"base\", \"finalize\" or a step number from 1, not %q", field, value)
}
