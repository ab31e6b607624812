package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// sandboxEntrypointValue is sandbox_entrypoint: what a consumer passes as entrypoint when it starts
// a sandbox from the template (OpenSandbox: the builder sandbox's), null for backends without one.
func sandboxEntrypointValue(backend, startCmd types.String) types.List {
	descriptor, err := backends.Named(backend.ValueString())
	if err != nil || descriptor.SandboxEntrypoint == nil {
		return types.ListNull(types.StringType)
	}
	argv := descriptor.SandboxEntrypoint(startCmd.ValueStringPointer())
	values := make([]attr.Value, len(argv))
	for i, arg := range argv {
		values[i] = types.StringValue(arg)
	}
	return types.ListValueMust(types.StringType, values)
}

// sandboxEntrypointPlan works sandbox_entrypoint out at plan time: it follows from backend and
// start_cmd alone, so consumers can plan with it.
type sandboxEntrypointPlan struct{}

func (sandboxEntrypointPlan) Description(context.Context) string {
	return "computed from backend and start_cmd"
}

func (p sandboxEntrypointPlan) MarkdownDescription(ctx context.Context) string {
	return p.Description(ctx)
}

func (sandboxEntrypointPlan) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var backend, startCmd types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("backend"), &backend)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("start_cmd"), &startCmd)...)
	if resp.Diagnostics.HasError() || backend.IsUnknown() || startCmd.IsUnknown() {
		return // stays unknown; apply sets it (setResult)
	}
	resp.PlanValue = sandboxEntrypointValue(backend, startCmd)
}
