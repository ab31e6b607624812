package builders

import "context"

// Activator is a Builder whose backend puts a template's build to sleep when nobody uses it (a
// Daytona snapshot turns inactive after 14 days unused): no sandbox starts from it, yet it needs
// no rebuild, only an activation. A refresh that finds it asleep plans an activation, and the
// apply activates it, instead of building again.
type Activator interface {
	// Dormant returns the build consumers of the template would start from, when it exists but
	// sleeps ("" when none does: it is usable, or gone, or failed).
	Dormant(ctx context.Context, templateID string) (build string, err error)
	// Activate wakes build and waits until a sandbox can start from it, waiting out what the
	// backend refuses for a while (a cooldown after deactivation) within ctx.
	Activate(ctx context.Context, build string, obs Observer) error
}
