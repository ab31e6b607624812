package builders

import (
	"errors"
	"strings"
)

// FieldError is one problem with one spec field. Field is the path as HCL spells it
// ("registry_auth.aws.region", "packages[2]"), so the provider can report it on the attribute
// at fault without restating the rule.
type FieldError struct {
	Field   string
	Message string
	// Reads names the other top-level fields the rule looked at: while any of them is unknown
	// (at plan), the problem may not be one.
	Reads []string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Message }

// Root is the top-level field of Field: "registry_auth" for "registry_auth.aws.region".
func (e FieldError) Root() string {
	return strings.FieldsFunc(e.Field, func(r rune) bool { return r == '.' || r == '[' })[0]
}

// FieldErrors are every problem of a spec.
type FieldErrors []FieldError

// Err joins the problems into one error, nil when there are none.
func (fe FieldErrors) Err() error {
	errs := make([]error, len(fe))
	for i, e := range fe {
		errs[i] = e
	}
	return errors.Join(errs...)
}
