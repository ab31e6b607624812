package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// checkBuildTimeout refuses at plan time a create or update timeout the backend's server would
// cut short (an OpenSandbox builder sandbox lives at most max_sandbox_timeout_seconds), instead
// of failing that build at apply.
func checkBuildTimeout(ctx context.Context, b builders.Builder, creating bool, t timeouts.Value, resp *resource.ModifyPlanResponse) {
	checker, ok := b.(builders.BuildTimeoutChecker)
	if !ok {
		return
	}
	budget, diags := t.Update(ctx, mustDuration(defaultUpdateTimeout))
	if creating {
		budget, diags = t.Create(ctx, mustDuration(defaultCreateTimeout))
	}
	if diags.HasError() || budget <= 0 {
		return // validateTimeouts reports it
	}
	if err := checker.CheckBuildTimeout(budget.Round(time.Second)); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeouts"), "Build timeout longer than the server allows", err.Error())
	}
}
