package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var (
	_ resource.ResourceWithConfigure      = (*templateCheckResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*templateCheckResource)(nil)
	_ resource.ResourceWithValidateConfig = (*templateCheckResource)(nil)
)

// templateCheckResource is sandbox_template_check: create runs the check (builders.RunCheck) and
// records it only when it passed. A check is a past event: read keeps the record as it is, without
// asking the backend (whether the build still exists is the template's and the tag's to tell, and
// a check of a build since deleted still proved what it proved), and delete ends nothing remote,
// the sandbox having ended with the run. Every argument replaces it, so it runs again.
type templateCheckResource struct {
	backends *backendSet
}

func newTemplateCheckResource() resource.Resource { return &templateCheckResource{} }

func (r *templateCheckResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template_check"
}

func (r *templateCheckResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = templateCheckSchema()
}

func (r *templateCheckResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig refuses what plan time can tell is wrong: a template_ref that names no one build
// or a backend that cannot check, an empty command, a bad regular expression, a bad timeout.
func (r *templateCheckResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var config templateCheckModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, problem := checkTarget(config); problem != "" {
		resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "Invalid template_ref", problem)
	}
	if !config.Timeout.IsNull() && !config.Timeout.IsUnknown() {
		if _, ok := config.timeout(); !ok {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout",
				fmt.Sprintf("%q is not a positive duration such as \"90s\" or \"5m\"", config.Timeout.ValueString()))
		}
	}
	if config.Commands.IsUnknown() || config.Commands.IsNull() {
		return
	}
	var listed []checkCommandModel
	resp.Diagnostics.Append(config.Commands.ElementsAs(ctx, &listed, false)...)
	if len(listed) == 0 {
		resp.Diagnostics.AddAttributeError(path.Root("commands"), "No commands", "A check runs at least one command.")
	}
	for i, c := range listed {
		if c.Run.IsUnknown() || c.ExpectOutput.IsUnknown() {
			continue
		}
		command := builders.CheckCommand{Run: c.Run.ValueString(), ExpectOutput: c.ExpectOutput.ValueString()}
		if field, problem := command.Problem(); problem != "" {
			resp.Diagnostics.AddAttributeError(path.Root("commands").AtListIndex(i).AtName(field), "Invalid check command", field+" "+problem)
		}
	}
}

// checkTarget reads template_ref; a problem is "" also while it is unknown.
func checkTarget(m templateCheckModel) (builders.CheckTarget, string) {
	provider, value, known := m.ref()
	if !known {
		return builders.CheckTarget{}, ""
	}
	backend, err := backends.Named(provider)
	if err != nil {
		return builders.CheckTarget{}, "provider: " + err.Error()
	}
	if !backend.Checks {
		return builders.CheckTarget{}, fmt.Sprintf("the %s backend cannot start sandboxes from its builds yet, so nothing can check them: "+
			"checks run on %s", backend.Title, titles(checkingBackends()))
	}
	return builders.ParseCheckTarget(backend, value)
}

// ModifyPlan plans the build a check will record where template_ref names it (E2B's build_ref),
// and refuses at plan a reference to a build that does not exist. A template id (OpenSandbox) is
// resolved when the check runs: in the plan that creates the template, it has no build yet. Once
// a check of a template id is recorded, a plan that finds the template serving another build than
// the one checked replaces the check, so the new build is checked too.
func (r *templateCheckResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.backends == nil {
		return
	}
	var plan templateCheckModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	target, problem := checkTarget(plan)
	provider, _, _ := plan.ref()
	descriptor, _ := backends.Named(provider)
	exact := plan.BuildID.IsUnknown() && target.Build != "" // the check runs on exactly this build
	// Recorded, of whatever the template id serves; a backend that builds nothing serves no other.
	byName := !plan.BuildID.IsUnknown() && target.Build == "" && descriptor != nil && descriptor.Builds()
	if problem != "" || (!exact && !byName) {
		return
	}
	builder, err := r.backends.Builder(ctx, provider)
	if err != nil {
		if !knownLater(err) {
			resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "Backend not configured", err.Error())
		}
		return
	}
	readCtx, cancel := r.backends.readContext(ctx)
	defer cancel()
	if exact {
		if _, err := builders.ResolveCheckBuild(readCtx, builder, target); errors.Is(err, builders.ErrNoCheckedBuild) {
			resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "No build to check", err.Error())
			return
		}
		plan.BuildID = types.StringValue(target.Build)
		resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
		return
	}
	serving, ok := builder.(builders.ServingChecker)
	if !ok {
		return
	}
	served, err := serving.Serving(readCtx, target.TemplateID, false, "")
	if err != nil || served == "" || served == plan.BuildID.ValueString() {
		return // a look-up that fails, or a template gone, leaves the record as it is
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("template_ref"), "Template serves another build",
		fmt.Sprintf("Template %q now serves build %s, not build %s that this check passed: the check runs again, on %s.",
			target.TemplateID, served, plan.BuildID.ValueString(), served))
	resp.RequiresReplace.Append(path.Root("build_id")) // Terraform replaces for a path whose value changes: build_id does
	plan.ID, plan.BuildID, plan.CheckedAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	plan.Results = types.ListUnknown(types.ObjectType{AttrTypes: checkResultAttrTypes})
	resp.Diagnostics.Append(resp.Plan.Set(ctx, plan)...)
}

// Create runs the check and records it only when it passed: a failure fails the apply and leaves
// no record, so the next apply checks again.
func (r *templateCheckResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan templateCheckModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	target, problem := checkTarget(plan) // known now; ValidateConfig saw it only where it was known
	if problem != "" {
		resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "Invalid template_ref", problem)
		return
	}
	timeout, ok := plan.timeout()
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout", fmt.Sprintf("%q is not a positive duration", plan.Timeout.ValueString()))
		return
	}
	provider, _, _ := plan.ref()
	builder, err := r.backends.Builder(ctx, provider)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "Backend not configured", err.Error())
		return
	}
	starter, ok := builder.(builders.SandboxStarter)
	if !ok { // Backend.Checks says it is one (backends.TestCapabilitiesMatchBuilders)
		resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "Backend cannot check", "the "+provider+" backend cannot start sandboxes")
		return
	}
	commands, diags := plan.commands(ctx)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	build, err := builders.ResolveCheckBuild(ctx, builder, target)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("template_ref"), "No build to check", checkFailure(err, timeout))
		return
	}
	sandboxReq, diags := plan.request(ctx, target, build, timeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	report, err := builders.RunCheck(ctx, starter, sandboxReq, commands)
	for _, warning := range report.Warnings {
		resp.Diagnostics.AddWarning("Check sandbox not ended", warning)
	}
	if err != nil {
		summary := fmt.Sprintf("Check of build %s failed", build)
		if failed := len(report.Results) - 1; failed >= 0 && !report.Results[failed].Passed {
			resp.Diagnostics.AddAttributeError(path.Root("commands").AtListIndex(failed), summary, checkFailure(err, timeout))
			return
		}
		resp.Diagnostics.AddError(summary, checkFailure(err, timeout))
		return
	}
	plan.record(report, build, time.Now())
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// checkFailure is err with its stage, and what to do about a timeout.
func checkFailure(err error, timeout time.Duration) string {
	stage := builders.StageOf(err, builders.StageCheck)
	detail := fmt.Sprintf("%s: %s", stage, builders.DetailOf(err))
	if stage == builders.StageTimeout {
		detail += fmt.Sprintf(" (the check's timeout is %s: raise `timeout` if the build needs longer)", timeout)
	}
	if !strings.HasSuffix(detail, "\n") {
		detail += "\n"
	}
	return detail + "Nothing was recorded: the next apply runs the check again."
}

// Read keeps the record: a check is a past event (see templateCheckResource).
func (r *templateCheckResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state templateCheckModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update only records the plan: every argument replaces the check, so nothing is left to update.
func (r *templateCheckResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan templateCheckModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// Delete forgets the check: its sandbox ended with its run.
func (r *templateCheckResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}
