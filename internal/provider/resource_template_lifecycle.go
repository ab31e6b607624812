package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// lifecycle is where a template resource stands. It is derived from state in one place
// (lifecycleOf); status holds the build outcome, and the private "imported" key says whether the
// resource came from an import whose inputs the first update adopts instead of rebuilding.
type lifecycle int

const (
	lifecycleBuilt        lifecycle = iota // the last build (or check) made the template usable
	lifecycleImported                      // imported, not yet updated: the configured inputs are adopted
	lifecycleBuilding                      // a create saw the template exist, not its build finish
	lifecycleFailedCreate                  // the create's build failed: no build of this resource was ever usable
	lifecycleFailed                        // an update's build failed: the build recorded before still serves
	lifecycleUnsupported                   // the backend builds nothing (Bedrock): recorded UNSUPPORTED
	lifecycleSuperseded                    // a refresh found the template serving a build this resource did not make
	lifecycleDormant                       // a refresh found its build asleep (builders.Activator): the next apply activates it
)

// statusBuilding is the status saved while a create waits for its build. It is a state of this
// resource, not a build outcome, so it is not one of the core's statuses.
const statusBuilding = "BUILDING"

// privateImported marks state that came from an import.
const privateImported = "imported"

// statusSuperseded is what a refresh records when the template serves a build this resource did not
// make (another configuration or a manual build replaced it): state no longer claims SUCCESS or
// SKIPPED for inputs sandboxes do not start from, and the next plan rebuilds.
const statusSuperseded = "SUPERSEDED"

// statusInactive is what a refresh records when the template's build sleeps (a Daytona snapshot
// unused for 14 days): no sandbox starts from it, yet the next apply only activates it.
const statusInactive = "INACTIVE"

type privateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// lifecycleOf derives the lifecycle from a state's status and its private data.
func lifecycleOf(ctx context.Context, state templateModel, private privateReader) (lifecycle, diag.Diagnostics) {
	imported, diags := private.GetKey(ctx, privateImported)
	switch status := state.Status.ValueString(); {
	case len(imported) > 0:
		return lifecycleImported, diags
	case status == statusBuilding:
		return lifecycleBuilding, diags
	case status == string(builders.StatusFailed) && state.BuildID.ValueString() == "":
		return lifecycleFailedCreate, diags // (or saved by a release that recorded no build_id)
	case status == string(builders.StatusFailed):
		return lifecycleFailed, diags
	case status == string(builders.StatusUnsupported):
		return lifecycleUnsupported, diags
	case status == statusSuperseded:
		return lifecycleSuperseded, diags
	case status == statusInactive:
		return lifecycleDormant, diags
	}
	return lifecycleBuilt, diags
}

// unconfirmed tells whether the template may exist without a build this resource saw succeed: a
// create that stopped waiting, or whose build failed, which the backend may still finish. A failed
// update is not: the template serves the build recorded before it, which this resource made.
func (l lifecycle) unconfirmed() bool { return l == lifecycleBuilding || l == lifecycleFailedCreate }

// rebuilds tells whether the next update builds even when no build input changed: the last build
// failed (a rebuild reverted to the inputs still served is adopted without building, where the
// backend records inputs), or the template serves a build this resource did not make.
func (l lifecycle) rebuilds() bool {
	return l == lifecycleFailedCreate || l == lifecycleFailed || l == lifecycleSuperseded
}
