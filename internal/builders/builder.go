package builders

import "context"

// Builder is one backend's way of making templates. Implementations live in sub-packages.
type Builder interface {
	Provider() SandboxProvider
	// SupportsBuild is false for backends without templates (Bedrock).
	SupportsBuild() bool
	// Build makes the template. A backend that cannot build returns Unsupported(...) and a nil error.
	// Failures are errors, wrapped with AtStage where the stage is known.
	Build(ctx context.Context, spec TemplateSpec) (TemplateBuildResult, error)
	// IsUsable tells whether a template with this id exists and can start sandboxes now.
	IsUsable(ctx context.Context, templateID string) (bool, error)
}

// Deleter is a Builder that can remove a template. Deleting a template that is already gone is not an error.
type Deleter interface {
	Delete(ctx context.Context, templateID string) error
}
