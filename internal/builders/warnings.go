package builders

import "fmt"

// Warning is a non-fatal remark on a spec field (a deprecation, a field the backend ignores).
type Warning struct {
	Field   string
	Message string
}

// Warnings lists the deprecations and ignored fields of spec on backend b, in field order.
func (s TemplateSpec) Warnings(b *Backend) []Warning {
	var warnings []Warning
	for _, f := range specFields {
		field := f.name
		if f.role == RoleIdentity || !s.isSet(f) {
			continue
		}
		if reason := b.Ignored[field]; reason != "" {
			warnings = append(warnings, Warning{Field: field, Message: fmt.Sprintf("%s is ignored by %s: %s", field, b.Name, reason)})
		} else if msg := deprecations[field]; msg != "" {
			warnings = append(warnings, Warning{Field: field, Message: msg})
		}
	}
	return warnings
}

// deprecations are the fields kept only for configurations that use them. base_template is not
// one: it is E2B's fromTemplate, which its SDKs document, without deprecation, for customising
// E2B's own templates (Template().fromTemplate("code-interpreter-v1")).
var deprecations = map[string]string{
	"dockerfile": "dockerfile is deprecated: build from image and list packages and steps instead",
}

// DeprecationMessage returns the deprecation notice of a field, or "".
func DeprecationMessage(field string) string { return deprecations[field] }
