package builders

import "context"

type createdHookKey struct{}

// WithCreatedHook returns a context whose builder calls hook as soon as the remote template exists,
// before waiting for the build. Callers persist it there, so a failed or interrupted wait never
// orphans the template.
func WithCreatedHook(ctx context.Context, hook func(TemplateRef)) context.Context {
	return context.WithValue(ctx, createdHookKey{}, hook)
}

// NotifyCreated is called by builders once the remote template exists.
func NotifyCreated(ctx context.Context, ref TemplateRef) {
	if hook, ok := ctx.Value(createdHookKey{}).(func(TemplateRef)); ok && hook != nil {
		hook(ref)
	}
}

type progressHookKey struct{}

// WithProgress returns a context whose builder reports each step of a build (stage changes, waits
// and build-log lines) to hook as it happens: the provider logs them, and an action streams them
// to the CLI. Hook must be quick and safe for concurrent use.
func WithProgress(ctx context.Context, hook func(line string)) context.Context {
	return context.WithValue(ctx, progressHookKey{}, hook)
}

// ReportProgress is called by builders for every line worth showing while a build runs.
func ReportProgress(ctx context.Context, line string) {
	if hook, ok := ctx.Value(progressHookKey{}).(func(string)); ok && hook != nil {
		hook(line)
	}
}
