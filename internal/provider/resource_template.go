package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var (
	_ resource.ResourceWithConfigure      = (*templateResource)(nil)
	_ resource.ResourceWithImportState    = (*templateResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*templateResource)(nil)
	_ resource.ResourceWithValidateConfig = (*templateResource)(nil)
	_ resource.ResourceWithIdentity       = (*templateResource)(nil)
)

type templateResource struct {
	backends *backendSet
	now      func() time.Time
}

func newTemplateResource() resource.Resource { return &templateResource{now: time.Now} }

func (r *templateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template"
}

func (r *templateResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = templateResourceSchema(ctx)
}

func (r *templateResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"backend": identityschema.StringAttribute{RequiredForImport: true,
			Description: "Sandbox backend: " + strings.ReplaceAll(backtickList(backends.All), "`", "") + "."},
		"template_id": identityschema.StringAttribute{RequiredForImport: true,
			Description: "Template name: " + templateNames(backends.All) + "."},
	}}
}

func (r *templateResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig reports, at plan time and on the attribute at fault, every problem the core
// finds in the configured spec (the rules live there, once), what only HCL can get wrong
// (registry_auth's "exactly one" rules, timeouts), and the fields the backend ignores.
func (r *templateResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Config.Raw, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Backend.IsUnknown() || cfg.Backend.IsNull() {
		return
	}
	backend, err := backends.Named(cfg.Backend.ValueString())
	if err != nil {
		return // the backend attribute's OneOf validator reports it
	}
	validateTimeouts(cfg, resp)
	checkSpec(ctx, cfg, backend, &resp.Diagnostics)
	for _, field := range builders.SpecFields {
		if reason := backend.Ignored[field]; reason != "" && isSet(cfg.attribute(field)) {
			resp.Diagnostics.AddAttributeWarning(path.Root(field), "Ignored by the "+string(backend.Name)+" backend", field+" is ignored: "+reason+".")
		}
	}
}

// ModifyPlan plans what the schema does not: id, template_ref, sandbox_entrypoint, the image's
// digest and the steps' outputs (files_hash, sandbox_env, sandbox_workdir, sandbox_user) where they
// are known, replacement when backend or template_id changes, and the one decision apply follows:
// keep the build (the state's outcome planned, so such plans show only what really changes), or
// build (the outcome unknown: Update rebuilds). The image digest is resolved first, so a moved tag
// counts in that decision. It fails the plan when the chosen backend is not configured (a setting
// Terraform will know only at apply counts as configured). It reads the plan once and sets it once:
// each GetAttribute and SetAttribute walks the schema (BenchmarkTemplatePlanRPCs).
func (r *templateResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Plan.Raw, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned := plan.ImageDigest
	digest, resolved := r.planImageDigest(ctx, req, plan, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	if resolved {
		plan.ImageDigest = digest
	}
	if outputsMoved := plan.planStepsOutputs(); !outputsMoved && plan.ImageDigest.Equal(planned) && unchanged(ctx, req) {
		return
	}
	var state templateModel
	creating := req.State.Raw.IsNull()
	if creating {
		plan.filesHashFromBuild()
	} else {
		resp.Diagnostics.Append(readModel(ctx, req.State.Raw, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		for _, f := range templateCodec().withRole(roleIdentity) { // another backend or id is another template
			if !plan.value(f).Equal(state.value(f)) {
				resp.RequiresReplace.Append(path.Root(f.name))
			}
		}
		// The template keeps its id and reference through an update: a rebuild changes neither.
		plan.ID, plan.TemplateRef = state.ID, state.TemplateRef
	}
	if !plan.Backend.IsUnknown() && !plan.StartCmd.IsUnknown() {
		plan.SandboxEntrypoint = sandboxEntrypointValue(plan.Backend, plan.StartCmd) // else known at apply (setResult)
	}
	if plan.ImageDigestCheck.ValueString() == digestCheckOff {
		plan.ImageDigest = types.StringNull() // no check, no digest
	}
	if r.backends != nil {
		r.planBuild(ctx, req, creating, &plan, state, resp)
	}
	if resolved {
		plan.ImageDigest = digest // as resolved, also where the build is kept (unknown: credentials known at apply)
	}
	resp.Diagnostics.Append(writeModel(ctx, plan, &resp.Plan.Raw)...)
}

func (r *templateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Plan.Raw, &plan)...)
	resp.Diagnostics.Append(readModel(ctx, req.Config.Raw, &config)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, plan.Backend, plan.TemplateID)...)
	timeout, diags := plan.Timeouts.Create(ctx, mustDuration(defaultCreateTimeout))
	resp.Diagnostics.Append(diags...)
	builder, spec := r.prepare(ctx, &plan, config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rec := &buildRecorder{plan: plan, state: &resp.State, diags: &resp.Diagnostics, now: r.now, dropFailed: r.backends.dropFailedCreates}
	rec.finish(ctx, builders.Ensure(ctx, builder, spec, rec.observer(ctx)))
}

func (r *templateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state templateModel
	resp.Diagnostics.Append(readModel(ctx, req.State.Raw, &state)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, state.Backend, state.TemplateID)...)
	lc, diags := lifecycleOf(ctx, state, req.Private)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if lc == lifecycleUnsupported {
		r.recheckUnsupported(ctx, state, resp)
		return
	}
	builder, err := r.backends.Builder(ctx, state.Backend.ValueString())
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	ctx, cancel := r.backends.readContext(ctx)
	defer cancel()
	usable, err := r.checkServed(ctx, builder, state, lc, resp)
	if err != nil {
		resp.Diagnostics.AddError("Could not read sandbox template", r.backends.readError(ctx, state.Backend.ValueString(), state.TemplateID.ValueString(), err).Error())
		return
	}
	if !usable && !lc.unconfirmed() {
		if dormant, err := recordDormant(ctx, builder, state, resp); err != nil || dormant {
			if err != nil {
				resp.Diagnostics.AddError("Could not read sandbox template", r.backends.readError(ctx, state.Backend.ValueString(), state.TemplateID.ValueString(), err).Error())
			}
			return // asleep, not gone: the next apply activates it
		}
		tflog.Warn(ctx, "sandbox template is gone or not usable; removing it from state", map[string]any{"template_id": state.TemplateID.ValueString()})
		resp.State.RemoveResource(ctx)
	}
	// Otherwise the state stays as it was (resp.State starts as a copy of it): a create that did
	// not see its build finish is kept, tainted, so the next apply replaces it.
}

func (r *templateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, config, state templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Plan.Raw, &plan)...)
	resp.Diagnostics.Append(readModel(ctx, req.Config.Raw, &config)...)
	resp.Diagnostics.Append(readModel(ctx, req.State.Raw, &state)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, plan.Backend, plan.TemplateID)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch plannedFor(plan, state) {
	case planActivate:
		r.activate(ctx, plan, state, resp)
		return
	case planKeep:
		// The plan keeps the build (ModifyPlan decided): only settings such as keep_remotely or
		// timeouts changed, or an import is being adopted. No API call, the outcome stays as it was.
		plan.copyResult(state)
		if !r.retag(ctx, plan, state, &resp.Diagnostics) {
			plan.Tags, plan.Candidate = state.Tags, state.Candidate // the next plan tries again
		}
		resp.Diagnostics.Append(writeModel(ctx, plan, &resp.State.Raw)...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
		return
	case planBuild: // below
	}
	timeout, diags := plan.Timeouts.Update(ctx, mustDuration(defaultUpdateTimeout))
	resp.Diagnostics.Append(diags...)
	builder, spec := r.prepare(ctx, &plan, config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rec := &buildRecorder{plan: plan, prior: &state, state: &resp.State, diags: &resp.Diagnostics, now: r.now}
	rec.finish(ctx, builders.Rebuild(ctx, builder, spec, rec.observer(ctx)))
}

func (r *templateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state templateModel
	resp.Diagnostics.Append(readModel(ctx, req.State.Raw, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.KeepRemotely.ValueBool() {
		tflog.Info(ctx, "keep_remotely is set: forgetting the template without deleting it")
		return
	}
	builder, err := r.backends.Builder(ctx, state.Backend.ValueString())
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	lc, diags := lifecycleOf(ctx, state, req.Private)
	resp.Diagnostics.Append(diags...)
	deleter, ok := builder.(builders.Deleter)
	if !ok {
		return // e.g. Bedrock: code interpreters are not created by this resource
	}
	timeout, diags := state.Timeouts.Delete(ctx, mustDuration(defaultDeleteTimeout))
	resp.Diagnostics.Append(diags...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if lc.unconfirmed() && madeFromRecordedInputs(ctx, builder, state, "") {
		// The create gave up waiting (timeout, interrupt, lost connection) but the build went on and
		// finished. Keep it: this delete is most often the first half of replacing the tainted
		// resource, and the create that follows adopts the template instead of building it again.
		// Only where the backend can tell it was made from these inputs: elsewhere the create builds.
		resp.Diagnostics.AddWarning("Template kept",
			fmt.Sprintf("Template %q finished building after its create stopped waiting, so it was not deleted: a re-create "+
				"adopts it without building again. If you are destroying it for good, delete it on %s or import and destroy it.",
				state.TemplateID.ValueString(), state.Backend.ValueString()))
		return
	}
	if err := deleter.Delete(ctx, state.TemplateID.ValueString()); err != nil {
		resp.Diagnostics.AddError("Could not delete sandbox template", err.Error())
	}
}

// ImportState takes "<template_id>" (a template of backends.ImportDefault, E2B) or
// "<backend>/<template_id>", or an identity. The state records the template as found usable (the
// read that follows removes it when it is not), and the import flag lets the first update adopt
// the configured inputs.
func (r *templateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, diags := importID(ctx, req)
	resp.Diagnostics.Append(diags...)
	descriptor, templateID, err := importedBackend(id)
	if err == nil {
		err = descriptor.ValidateTemplateID(templateID).Err()
	}
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID",
			fmt.Sprintf("Expected \"<template_id>\" or \"<backend>/<template_id>\": %s", err))
		return
	}
	backend := string(descriptor.Name)
	ref := &builders.TemplateRef{Provider: descriptor.Name, Value: templateID}
	if descriptor.RefNamesBuild { // the reference is the build served: ask which (none: the read that follows removes it)
		ref = r.importedRef(ctx, backend, templateID, ref, &resp.Diagnostics)
	}
	imported := templateModel{Backend: types.StringValue(backend), TemplateID: types.StringValue(templateID)}
	imported.setResult(builders.TemplateBuildResult{Status: builders.StatusSkipped, TemplateRef: ref,
		Detail: "imported: the template was already usable"}, r.now())
	resp.Diagnostics.Append(setImportedAttributes(ctx, &resp.State, backend, templateID)...)
	resp.Diagnostics.Append(imported.setResultAttributes(ctx, &resp.State)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte(`true`))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, types.StringValue(backend), types.StringValue(templateID))...)
}

// prepare opens the plan's backend and maps the plan onto the spec to build, pinned to the
// planned image digest and with its files read, which it settles in plan (image_digest, files_hash).
func (r *templateResource) prepare(ctx context.Context, plan *templateModel, config templateModel, diags *diag.Diagnostics) (builders.Builder, builders.TemplateSpec) {
	builder, err := r.backends.Builder(ctx, plan.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return nil, builders.TemplateSpec{}
	}
	spec, specDiags := plan.spec(ctx, config)
	diags.Append(specDiags...)
	plan.ImageDigest = settledDigest(plan.ImageDigest)
	spec.Image = buildImage(spec.Image, plan.ImageDigest)
	spec = spec.Resolved() // the files read once: the build places them, files_hash records them
	if plan.FilesHash.IsUnknown() {
		plan.FilesHash = filesHashOf(spec)
	}
	return builder, spec
}

// recheckUnsupported looks again at a template recorded UNSUPPORTED (Bedrock: no READY code
// interpreter of that id yet). One that has become usable since turns the resource SKIPPED, with its
// template_ref. Nothing remote backs an UNSUPPORTED result, so a failed look only warns and keeps it.
func (r *templateResource) recheckUnsupported(ctx context.Context, state templateModel, resp *resource.ReadResponse) {
	builder, err := r.backends.Builder(ctx, state.Backend.ValueString())
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
		TemplateRef: &builders.TemplateRef{Provider: builder.Backend().Name, Value: state.TemplateID.ValueString()},
		Detail:      "usable since it was recorded UNSUPPORTED; nothing was built"}, r.now())
	resp.Diagnostics.Append(writeModel(ctx, state, &resp.State.Raw)...)
}
