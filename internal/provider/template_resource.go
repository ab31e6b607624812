package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

var (
	_ resource.ResourceWithConfigure      = (*templateResource)(nil)
	_ resource.ResourceWithImportState    = (*templateResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*templateResource)(nil)
	_ resource.ResourceWithValidateConfig = (*templateResource)(nil)
)

// statusBuilding is the status saved while a create waits for its build; it is not a build
// outcome, so it is not one of the core's statuses.
const statusBuilding = "BUILDING"

// privateImported marks state that came from an import: the first update adopts the configured
// inputs instead of rebuilding a template that is already there.
const privateImported = "imported"

type templateResource struct {
	backends *backends
	now      func() time.Time
}

func newTemplateResource() resource.Resource { return &templateResource{now: time.Now} }

func (r *templateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = templateResourceSchema(ctx)
}

func (r *templateResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *templateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config templateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, plan.Backend, plan.TemplateID)...)
	timeout, diags := plan.Timeouts.Create(ctx, mustDuration(defaultCreateTimeout))
	resp.Diagnostics.Append(diags...)
	r.build(ctx, timeout, plan, config, &resp.State, &resp.Diagnostics, builders.Ensure, true)
}

func (r *templateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, config, state templateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, plan.Backend, plan.TemplateID)...)
	keep, diags := keepsBuild(ctx, req.Private, plan, state)
	resp.Diagnostics.Append(diags...)
	if keep {
		// Only settings such as keep_remotely or timeouts changed, or an import is being adopted:
		// no API call, the build outcome stays as it was.
		plan.copyResult(state)
		resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, mustDuration(defaultUpdateTimeout))
	resp.Diagnostics.Append(diags...)
	result := r.build(ctx, timeout, plan, config, &resp.State, &resp.Diagnostics, builders.Rebuild, false)
	if result.Status == builders.StatusFailed {
		// The prior state stays, with its inputs (so the next plan retries the update) and its
		// template_ref (the template still serves its previous build), and says the rebuild failed.
		// A retry adopts the build if it finished after all (builders.Rebuild).
		state.Status, state.Stage, state.Detail = types.StringValue(string(result.Status)), types.StringValue(string(result.Stage)), types.StringValue(result.Detail)
		state.Logs = logTail(result.Logs)
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	}
}

type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// build runs flow (Ensure or Rebuild), records its outcome and returns it. On create (saveEarly) the state is
// written as soon as the backend reports the template exists, so a failed or interrupted wait never
// orphans it: Terraform keeps the resource, tainted, and the next apply replaces it (see Delete).
func (r *templateResource) build(ctx context.Context, timeout time.Duration, plan, config templateModel,
	state stateSetter, diags *diag.Diagnostics,
	flow func(context.Context, builders.Builder, builders.TemplateSpec) builders.TemplateBuildResult, saveEarly bool) builders.TemplateBuildResult {
	builder, err := r.backends.Builder(ctx, plan.backend())
	if err != nil {
		diags.AddAttributeError(path.Root("backend"), "Backend not configured", err.Error())
		return builders.TemplateBuildResult{}
	}
	spec, specDiags := plan.spec(ctx, config)
	diags.Append(specDiags...)
	if diags.HasError() {
		return builders.TemplateBuildResult{}
	}
	plan.ImageDigest = settledDigest(plan.ImageDigest)
	spec.Image = buildImage(spec.Image, plan.ImageDigest)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	var (
		mu      sync.Mutex
		created *builders.TemplateRef
	)
	if saveEarly {
		ctx = builders.WithCreatedHook(ctx, func(ref builders.TemplateRef) {
			mu.Lock()
			defer mu.Unlock()
			created = &ref
			pending := plan
			pending.setResult(builders.TemplateBuildResult{Status: statusBuilding, TemplateRef: &ref,
				Detail: "the template exists; its build had not finished when this state was saved"}, r.now())
			diags.Append(state.Set(ctx, pending)...)
		})
	}
	fields := map[string]any{"backend": string(plan.backend()), "template_id": spec.TemplateID}
	tflog.Info(ctx, "building sandbox template", fields)
	ctx = builders.WithProgress(ctx, func(line string) { tflog.Info(ctx, line, fields) }) // e.g. waiting for a free build slot
	result := flow(ctx, builder, spec)

	mu.Lock()
	defer mu.Unlock()
	plan.setResult(result, r.now())
	switch result.Status {
	case builders.StatusFailed:
		diags.AddError(fmt.Sprintf("Template build failed at stage %s", result.Stage), failureDetail(result))
		if created != nil {
			plan.TemplateRef = templateRefValue(created) // the template exists, whatever became of its build
			diags.Append(state.Set(ctx, plan)...)
		}
		return result
	case builders.StatusUnsupported:
		diags.AddAttributeWarning(path.Root("backend"), "Backend has no templates",
			result.Detail+" The resource is recorded with status UNSUPPORTED and a null template_ref.")
	}
	diags.Append(state.Set(ctx, plan)...)
	return result
}

func failureDetail(result builders.TemplateBuildResult) string {
	var b strings.Builder
	b.WriteString(result.Detail)
	if len(result.Logs) > 0 {
		tail := result.Logs
		if len(tail) > 20 {
			tail = tail[len(tail)-20:]
		}
		b.WriteString("\n\nLast build log lines:\n  ")
		b.WriteString(strings.Join(tail, "\n  "))
	}
	return b.String()
}

func (r *templateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state templateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, state.Backend, state.TemplateID)...)
	if state.Status.ValueString() == string(builders.StatusUnsupported) {
		r.recheckUnsupported(ctx, state, resp)
		return
	}
	builder, err := r.backends.Builder(ctx, state.backend())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("backend"), "Backend not configured", err.Error())
		return
	}
	ctx, cancel := r.backends.readContext(ctx)
	defer cancel()
	imported := state.Status.IsNull()
	usable, err := builder.IsUsable(ctx, state.TemplateID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Could not read sandbox template", r.backends.readError(ctx, state.backend(), state.TemplateID.ValueString(), err).Error())
		return
	}
	if !usable && !buildUnconfirmed(state) {
		tflog.Warn(ctx, "sandbox template is gone or not usable; removing it from state", map[string]any{"template_id": state.TemplateID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if !usable {
		return // a create that did not see its build finish: kept (tainted) so the next apply replaces it
	}
	if imported { // otherwise the state stays as it was: resp.State starts as a copy of it
		state.setResult(builders.TemplateBuildResult{Status: builders.StatusSkipped,
			TemplateRef: &builders.TemplateRef{Provider: state.backend(), Value: state.TemplateID.ValueString()},
			Detail:      "imported: the template was already usable"}, r.now())
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	}
}

// recheckUnsupported looks again at a template recorded UNSUPPORTED (Bedrock: no READY code
// interpreter of that id yet). One that has become usable since turns the resource SKIPPED, with its
// template_ref. Nothing remote backs an UNSUPPORTED result, so a failed look only warns and keeps it.
func (r *templateResource) recheckUnsupported(ctx context.Context, state templateModel, resp *resource.ReadResponse) {
	builder, err := r.backends.Builder(ctx, state.backend())
	var usable bool
	if err == nil {
		usable, err = builder.IsUsable(ctx, state.TemplateID.ValueString())
	}
	if err != nil {
		resp.Diagnostics.AddWarning("Could not re-check an unsupported sandbox template", err.Error())
		return
	}
	if !usable {
		return
	}
	state.setResult(builders.TemplateBuildResult{Status: builders.StatusSkipped,
		TemplateRef: &builders.TemplateRef{Provider: state.backend(), Value: state.TemplateID.ValueString()},
		Detail:      "usable since it was recorded UNSUPPORTED; nothing was built"}, r.now())
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *templateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state templateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.KeepRemotely.ValueBool() {
		tflog.Info(ctx, "keep_remotely is set: forgetting the template without deleting it")
		return
	}
	builder, err := r.backends.Builder(ctx, state.backend())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("backend"), "Backend not configured", err.Error())
		return
	}
	deleter, ok := builder.(builders.Deleter)
	if !ok {
		return // e.g. Bedrock: code interpreters are not created by this resource
	}
	timeout, diags := state.Timeouts.Delete(ctx, mustDuration(defaultDeleteTimeout))
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if buildUnconfirmed(state) {
		// The create gave up waiting (timeout, interrupt, lost connection) but the build went on. If it
		// finished, keep it: this delete is most often the first half of replacing the tainted
		// resource, and the create that follows adopts the template instead of building it again.
		if usable, err := builder.IsUsable(ctx, state.TemplateID.ValueString()); err == nil && usable {
			resp.Diagnostics.AddWarning("Template kept",
				fmt.Sprintf("Template %q finished building after its create stopped waiting, so it was not deleted: a re-create "+
					"adopts it without building again. If you are destroying it for good, delete it on %s or import and destroy it.",
					state.TemplateID.ValueString(), state.Backend.ValueString()))
			return
		}
	}
	if err := deleter.Delete(ctx, state.TemplateID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not delete sandbox template", err.Error())
	}
}

// ImportState takes "<template_id>" (an E2B template) or "<backend>/<template_id>", or an identity.
func (r *templateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, diags := importID(ctx, req)
	resp.Diagnostics.Append(diags...)
	backend, templateID := string(builders.ProviderE2B), id
	if before, after, found := strings.Cut(id, "/"); found {
		backend, templateID = before, after
	}
	p, err := builders.ParseSandboxProvider(backend)
	if err == nil {
		err = builders.ValidateTemplateID(p, templateID)
	}
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID",
			fmt.Sprintf("Expected \"<template_id>\" or \"<backend>/<template_id>\": %s", err))
		return
	}
	resp.Diagnostics.Append(setImportedAttributes(ctx, &resp.State, backend, templateID)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte(`true`))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, types.StringValue(backend), types.StringValue(templateID))...)
}

// buildUnconfirmed tells whether state comes from a create that did not see its build succeed.
func buildUnconfirmed(state templateModel) bool {
	status := state.Status.ValueString()
	return status == statusBuilding || status == string(builders.StatusFailed)
}

func (m *templateModel) copyResult(from templateModel) {
	m.ID, m.TemplateRef, m.Status, m.Detail, m.Stage, m.Logs, m.LastBuiltAt =
		from.ID, from.TemplateRef, from.Status, from.Detail, from.Stage, from.Logs, from.LastBuiltAt
	if m.ImageDigest.IsUnknown() {
		m.ImageDigest = from.ImageDigest // no rebuild: the build in state keeps its digest
	}
}

func mustDuration(s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}

func backendsFrom(providerData any, diags *diag.Diagnostics) *backends {
	if providerData == nil {
		return nil // not configured yet (validation); Configure is called again
	}
	b, ok := providerData.(*backends)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *backends, got %T; please report this bug", providerData))
	}
	return b
}
