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
