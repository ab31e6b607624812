package builders

import "context"

// Superseder is a Builder whose builds replace one another under names of their own (Daytona's
// snapshots): a build removes the ones it supersedes once it is active, and so must an adoption,
// which builds nothing (a retry adopting a build that finished after its timeout, a create adopting
// an interrupted run's), or the superseded build stays where no state records it.
type Superseder interface {
	// RemoveSuperseded removes templateID's builds other than kept and says what it removed in log
	// lines; what it could not remove is a log line too (the next build removes it).
	RemoveSuperseded(ctx context.Context, templateID, kept string) []string
}

// withSupersededRemoved has a Superseder remove what an adopted build (SKIPPED naming a build)
// supersedes, its lines added to the result's logs.
func withSupersededRemoved(ctx context.Context, b Builder, spec TemplateSpec, result TemplateBuildResult) TemplateBuildResult {
	superseder, ok := b.(Superseder)
	if !ok || result.Status != StatusSkipped || result.BuildID == "" {
		return result
	}
	result.Logs = append(result.Logs, superseder.RemoveSuperseded(ctx, spec.TemplateID, result.BuildID)...)
	return result
}
