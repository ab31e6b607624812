package provider

import (
	"context"
	"fmt"
	"slices"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// keepsFailedCreates tells whether the CLI that made plan keeps a failed create in state, tainted:
// every CLI but Terraform >= 1.16, where the provider leaves it out (failedCreateCrashes).
func keepsFailedCreates(plan *tfjson.Plan) bool { return !failedCreateCrashes(plan.TerraformVersion) }

// expectRebuildOfFailedCreate checks the plan after a failed create: the tainted resource is replaced
// where the CLI kept it, created again where the provider had to leave it out of state.
type expectRebuildOfFailedCreate struct{ address string }

func (e expectRebuildOfFailedCreate) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	want := []tfjson.Action{tfjson.ActionCreate}
	if keepsFailedCreates(req.Plan) {
		want = []tfjson.Action{tfjson.ActionDelete, tfjson.ActionCreate} // replace
	}
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == e.address && slices.Equal(rc.Change.Actions, want) {
			return
		}
	}
	resp.Error = fmt.Errorf("%s: want actions %v on Terraform %s", e.address, want, req.Plan.TerraformVersion)
}
