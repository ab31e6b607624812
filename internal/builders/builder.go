package builders

import (
	"context"
	"time"
)

// Builder is one backend's way of making templates. Implementations live in sub-packages.
type Builder interface {
	// Backend is the descriptor of the builder's backend.
	Backend() *Backend
	// Build makes the template, telling obs when the remote template exists and how the build
	// goes. A backend that cannot build returns Unsupported(...) and a nil error. Failures are
	// errors, wrapped with AtStage where the stage is known.
	Build(ctx context.Context, spec TemplateSpec, obs Observer) (TemplateBuildResult, error)
	// IsUsable tells whether a template with this id exists and can start sandboxes now.
	IsUsable(ctx context.Context, templateID string) (bool, error)
}

// Deleter is a Builder that can remove a template. Deleting a template that is already gone is not an error.
type Deleter interface {
	Delete(ctx context.Context, templateID string) error
}

// Lister is a Builder that can name the templates its backend already has (terraform query). A
// backend whose builder is one says so in its descriptor (Backend.Lists).
type Lister interface {
	ListTemplates(ctx context.Context) ([]string, error)
}

// BuildTimeoutChecker is a Builder whose builds cannot outlast a server-side limit (OpenSandbox
// caps a sandbox's lifetime), so a too-long timeout can be refused at plan time.
type BuildTimeoutChecker interface {
	// CheckBuildTimeout returns an error saying what to change when budget exceeds the limit.
	CheckBuildTimeout(budget time.Duration) error
}

// ServingChecker is a Builder that can tell which build sandboxes of a template start from, so a
// refresh notices when the template serves a build the resource did not make (another
// configuration, or a manual build, replaced it).
type ServingChecker interface {
	// Serving returns the id of the build the caller's consumers start sandboxes from, "" when none
	// (gone, or no ready build): the plain template name's, or, for a candidate (TemplateSpec.
	// Candidate), the recorded build itself, which only its own reference starts. recorded is the
	// build the caller last made or adopted: while it is still served, a backend may tell with fewer
	// requests.
	Serving(ctx context.Context, templateID string, candidate bool, recorded string) (string, error)
}

// TagServingChecker is a ServingChecker of a backend with tags (Backend.Tags) that also tells, from
// the answer it reads anyway, which of the record's tags no longer start the served build, and the
// build each starts now ("" for none).
type TagServingChecker interface {
	ServingAndTags(ctx context.Context, templateID string, candidate bool, recorded string, tags []string) (string, map[string]string, error)
}
