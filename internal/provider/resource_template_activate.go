package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// recordDormant records, at a refresh that found the template unusable, a build that only sleeps
// (builders.Activator: a Daytona snapshot unused for 14 days): status INACTIVE, so the next plan
// activates it (planActivation) instead of dropping the resource and building it again. false
// when the backend puts nothing to sleep or nothing of the template sleeps.
func recordDormant(ctx context.Context, b builders.Builder, state templateModel, resp *resource.ReadResponse) (bool, error) {
	activator, ok := b.(builders.Activator)
	if !ok {
		return false, nil
	}
	build, err := activator.Dormant(ctx, state.TemplateID.ValueString())
	if err != nil || build == "" {
		return false, err
	}
	tflog.Warn(ctx, "sandbox template's build is inactive", map[string]any{"template_id": state.TemplateID.ValueString(), "build_id": build})
	state.Status = types.StringValue(statusInactive)
	state.Detail = types.StringValue(fmt.Sprintf("build %s is inactive (%s deactivates builds nobody used for a while): no sandbox "+
		"starts from it; the next apply activates it, without building", build, b.Backend().Title))
	state.BuildID, state.BuildRef = types.StringValue(build), buildRefValue(state.Backend, state.TemplateID, build)
	if refNamesBuild(state.Backend) {
		state.TemplateRef = state.BuildRef
	}
	resp.Diagnostics.Append(writeModel(ctx, state, &resp.State.Raw)...)
	return true, nil
}

// activate does what an update planned for a dormant build (planActivate): it wakes the build state
// records, without building, and records it SKIPPED. A failure, such as the backend's cooldown
// outlasting the update timeout, keeps the state as it was, so the next apply tries again.
func (r *templateResource) activate(ctx context.Context, plan, state templateModel, resp *resource.UpdateResponse) {
	builder, err := r.backends.Builder(ctx, plan.Backend.ValueString())
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	activator, ok := builder.(builders.Activator)
	if !ok { // the plan activates only what an Activator recorded dormant
		resp.Diagnostics.AddError("Cannot activate sandbox template", "The "+builder.Backend().Title+" backend has no inactive builds.")
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, mustDuration(defaultUpdateTimeout))
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	build := state.BuildID.ValueString()
	var mu sync.Mutex // the builder may report from its own goroutines
	var progress []string
	obs := buildLogger(ctx, plan)
	obs.OnProgress = func(line string) {
		tflog.Info(ctx, line)
		mu.Lock()
		defer mu.Unlock()
		progress = append(progress, line)
	}
	if err := activator.Activate(ctx, build, obs); err != nil {
		mu.Lock()
		defer mu.Unlock()
		detail := fmt.Sprintf("Activating build %s of template %q: %s.", build, plan.TemplateID.ValueString(), err)
		if len(progress) > 0 {
			detail += "\n\n" + strings.Join(progress, "\n")
		}
		resp.Diagnostics.AddAttributeError(path.Root("build_id"), "Could not activate sandbox template",
			detail+"\n\nNothing was built and the state still records it inactive: run apply again once the wait above is over "+
				"(or with a longer update timeout) to activate it.")
		return
	}
	plan.Detail = types.StringValue("build " + build + " was inactive: activated it, nothing was built")
	resp.Diagnostics.Append(writeModel(ctx, plan, &resp.State.Raw)...)
}
