package builders

// TemplateBuildStatus is the outcome of Ensure.
type TemplateBuildStatus string

const (
	StatusSuccess     TemplateBuildStatus = "SUCCESS"     // a build ran and the template is ready
	StatusSkipped     TemplateBuildStatus = "SKIPPED"     // the template was already usable
	StatusUnsupported TemplateBuildStatus = "UNSUPPORTED" // the backend has no templates to build
	StatusFailed      TemplateBuildStatus = "FAILED"      // see Stage and Detail
)

// TemplateRef is what a consumer passes to its sandbox backend: an E2B alias, an OpenSandbox
// snapshot name or a Bedrock code interpreter id, never a raw snapshot id.
type TemplateRef struct {
	Provider SandboxProvider `json:"provider"`
	Value    string          `json:"value"`
}

// TemplateBuildResult reports what Ensure or Build did. TemplateRef is nil for FAILED and UNSUPPORTED.
type TemplateBuildResult struct {
	Status      TemplateBuildStatus `json:"status"`
	TemplateRef *TemplateRef        `json:"template_ref"`
	Detail      string              `json:"detail,omitempty"`
	Stage       Stage               `json:"stage,omitempty"`
	Logs        []string            `json:"logs,omitempty"`
	// BuildID is the build the template serves after SUCCESS or SKIPPED, where the backend tells
	// builds apart (E2B); empty elsewhere.
	BuildID string `json:"build_id,omitempty"`
	// Warnings are what the user must hear whatever the outcome (e.g. an existing template built
	// from other inputs was rebuilt); the provider shows each as a warning.
	Warnings []string `json:"warnings,omitempty"`
}

// Succeeded returns a SUCCESS result for the given template.
func Succeeded(p SandboxProvider, templateID string, logs []string) TemplateBuildResult {
	return TemplateBuildResult{Status: StatusSuccess, TemplateRef: &TemplateRef{Provider: p, Value: templateID}, Logs: logs}
}

// Unsupported returns the UNSUPPORTED result of a backend that cannot build templates.
func Unsupported(detail string) TemplateBuildResult {
	return TemplateBuildResult{Status: StatusUnsupported, Detail: detail, Stage: StageTemplateBuild}
}
