package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// adoptsImport decides, at the plan after an import, whether the configured inputs can be adopted
// without a build: only when the backend cannot tell what the template was built from (a warning
// says so) or tells that it was built from these inputs. A template built from other inputs is
// rebuilt, and the plan says why; the import flag is dropped so apply does what was planned.
func adoptsImport(ctx context.Context, b builders.Builder, plan templateModel, resp *resource.ModifyPlanResponse) bool {
	checker, ok := b.(builders.InputsChecker)
	if !ok {
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template's inputs unknown",
			"The "+b.Backend().Title+" backend records no inputs a template was built from, so the configuration is adopted "+
				"as it is, without comparing them. Set force_rebuild = true, or change rebuild_triggers, to build it from this configuration.")
		return true
	}
	spec, diags := plan.spec(ctx, plan)
	if diags.HasError() || plan.Image.IsUnknown() {
		return true // unknown inputs: nothing to compare yet
	}
	verdict, _, err := checker.BuiltFrom(ctx, spec)
	switch {
	case err != nil:
		resp.Diagnostics.AddWarning("Imported template's inputs not checked", err.Error()+": the configured inputs are adopted as they are.")
	case verdict == builders.InputsUnknown:
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template's inputs unknown",
			"The template carries no record of the inputs it was built from (another tool built it), so the configuration "+
				"is adopted without comparing them. Set force_rebuild = true, or change rebuild_triggers, to build it from this configuration.")
	case verdict == builders.InputsDiffer:
		resp.Diagnostics.AddAttributeWarning(path.Root("template_id"), "Imported template built from other inputs",
			"The template's current build was not made from the configured inputs (image, packages, commands, sizing): "+
				"this apply rebuilds it instead of adopting it.")
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...) // so apply does what was planned
		return false
	}
	return true
}
