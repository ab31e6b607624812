package builders

import "fmt"

// Warning is a non-fatal remark on a spec field (a deprecation, a field the backend ignores).
type Warning struct {
	Field   string
	Message string
}

// Warnings lists the deprecations and ignored fields of spec on backend b, in field order.
func (s TemplateSpec) Warnings(b *Backend) []Warning {
	set := map[string]bool{
		"image": s.Image != "", "registry_auth": s.RegistryAuth != nil, "packages": len(s.Packages) > 0,
		"start_cmd": s.StartCmd != nil && *s.StartCmd != "", "ready_cmd": s.ReadyCmd != "", "cpu_count": s.CPUCount != 0,
		"memory_mb": s.MemoryMB != 0, "base_template": s.BaseTemplate != "", "dockerfile": s.Dockerfile != "",
		"force_rebuild": s.ForceRebuild, "steps": len(s.Steps) > 0, "ready_check": s.ReadyCheck != nil,
		"min_free_disk_mb": s.MinFreeDiskMB != nil,
	}
	var warnings []Warning
	for _, field := range SpecFields {
		if !set[field] {
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

// SpecFields names the spec's fields as the seed (and the Terraform schema) spells them.
var SpecFields = []string{
	"image", "registry_auth", "packages", "steps", "start_cmd", "ready_cmd", "ready_check", "cpu_count", "memory_mb",
	"min_free_disk_mb", "base_template", "dockerfile", "force_rebuild",
}

// deprecations are the fields kept only for configurations that use them. base_template is not
// one: it is E2B's fromTemplate, which its SDKs document, without deprecation, for customising
// E2B's own templates (Template().fromTemplate("code-interpreter-v1")).
var deprecations = map[string]string{
	"dockerfile": "dockerfile is deprecated: build from image and list packages and steps instead",
}

// DeprecationMessage returns the deprecation notice of a field, or "".
func DeprecationMessage(field string) string { return deprecations[field] }
