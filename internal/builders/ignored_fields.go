package builders

import "fmt"

// Warning is a non-fatal remark on a spec field (a deprecation, a field the backend ignores).
type Warning struct {
	Field   string
	Message string
}

// ignoredFields lists, per backend, the spec fields it accepts but does not use, and why.
var ignoredFields = map[SandboxProvider]map[string]string{
	ProviderOpenSandbox: {
		"ready_cmd":  "OpenSandbox has no ready check; the sandbox is snapshotted once it is Running",
		"cpu_count":  "OpenSandbox snapshots carry no sizing; set resource limits where sandboxes are started",
		"memory_mb":  "OpenSandbox snapshots carry no sizing; set resource limits where sandboxes are started",
		"dockerfile": "OpenSandbox cannot build from a Dockerfile; use image and packages",
	},
	ProviderBedrock: {
		"image":         "Bedrock AgentCore code interpreters have no custom images",
		"registry_auth": "Bedrock AgentCore code interpreters have no custom images",
		"packages":      "Bedrock AgentCore code interpreters ship fixed libraries",
		"start_cmd":     "Bedrock AgentCore code interpreters have no start command",
		"ready_cmd":     "Bedrock AgentCore code interpreters have no ready command",
		"cpu_count":     "Bedrock AgentCore code interpreters have no sizing",
		"memory_mb":     "Bedrock AgentCore code interpreters have no sizing",
		"base_template": "Bedrock AgentCore code interpreters have no templates",
		"dockerfile":    "Bedrock AgentCore code interpreters have no templates",
		"force_rebuild": "Bedrock AgentCore code interpreters are never built",
	},
}

// IgnoredFieldReason says why backend p ignores field, or "" when it uses it.
func IgnoredFieldReason(p SandboxProvider, field string) string { return ignoredFields[p][field] }

// Warnings lists the deprecations and ignored fields of spec on backend p, in field order.
func (s TemplateSpec) Warnings(p SandboxProvider) []Warning {
	set := map[string]bool{
		"image": s.Image != "", "registry_auth": s.RegistryAuth != nil, "packages": len(s.Packages) > 0,
		"start_cmd": s.StartCmd != nil && *s.StartCmd != "", "ready_cmd": s.ReadyCmd != "", "cpu_count": s.CPUCount != 0,
		"memory_mb": s.MemoryMB != 0, "base_template": s.BaseTemplate != "", "dockerfile": s.Dockerfile != "",
		"force_rebuild": s.ForceRebuild,
	}
	var warnings []Warning
	for _, field := range SpecFields {
		if !set[field] {
			continue
		}
		if reason := IgnoredFieldReason(p, field); reason != "" {
			warnings = append(warnings, Warning{Field: field, Message: fmt.Sprintf("%s is ignored by %s: %s", field, p, reason)})
		} else if msg := deprecations[field]; msg != "" {
			warnings = append(warnings, Warning{Field: field, Message: msg})
		}
	}
	return warnings
}

// SpecFields names the spec's fields as the seed (and the Terraform schema) spells them.
var SpecFields = []string{
	"image", "registry_auth", "packages", "start_cmd", "ready_cmd", "cpu_count", "memory_mb",
	"base_template", "dockerfile", "force_rebuild",
}

var deprecations = map[string]string{
	"base_template": "base_template is deprecated: build from image instead",
	"dockerfile":    "dockerfile is deprecated: build from image and list packages instead",
}

// DeprecationMessage returns the deprecation notice of a field, or "".
func DeprecationMessage(field string) string { return deprecations[field] }
