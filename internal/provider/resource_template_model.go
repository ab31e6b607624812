package provider

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// Bounds on the log tail kept in state: enough to diagnose a failed build, small enough for plans.
const (
	maxLogLines   = 50
	maxLogLineLen = 500
)

// templateModel is sandbox_template. Each field declares its role, which the codec exposes
// (templateCodec().withRole) and everything that treats fields alike derives from:
//   - identity: which template it is; another value replaces the resource;
//   - input: what the build is made from (builders.TemplateSpec's inputs, and files_hash, the
//     content of the files the steps place): a change rebuilds;
//   - credential: how the build reaches what it reads: rotating it builds nothing;
//   - setting: how this resource builds, keeps or names its builds: a change builds nothing;
//   - result: what a build sets: unknown in a plan that builds, the state's in one that keeps;
//   - output: what follows from the identity and inputs, planned where it is known.
type templateModel struct {
	Backend    types.String `tfsdk:"backend" role:"identity"`
	TemplateID types.String `tfsdk:"template_id" role:"identity"`

	Image           types.String `tfsdk:"image" role:"input"`
	Packages        types.List   `tfsdk:"packages" role:"input"`
	Steps           types.List   `tfsdk:"steps" role:"input"`
	StartCmd        types.String `tfsdk:"start_cmd" role:"input"`
	ReadyCmd        types.String `tfsdk:"ready_cmd" role:"input"`
	ReadyCheck      types.Object `tfsdk:"ready_check" role:"input"`
	CPUCount        types.Int64  `tfsdk:"cpu_count" role:"input"`
	MemoryMB        types.Int64  `tfsdk:"memory_mb" role:"input"`
	MinFreeDiskMB   types.Int64  `tfsdk:"min_free_disk_mb" role:"input"`
	DiskGB          types.Int64  `tfsdk:"disk_gb" role:"input"`
	GPUCount        types.Int64  `tfsdk:"gpu_count" role:"input"`
	BaseTemplate    types.String `tfsdk:"base_template" role:"input"`
	Dockerfile      types.String `tfsdk:"dockerfile" role:"input"`
	RebuildTriggers types.Map    `tfsdk:"rebuild_triggers" role:"input"`
	FilesHash       types.String `tfsdk:"files_hash" role:"input"`

	RegistryAuth types.Object `tfsdk:"registry_auth" role:"credential"`

	ForceRebuild     types.Bool     `tfsdk:"force_rebuild" role:"setting"`
	KeepRemotely     types.Bool     `tfsdk:"keep_remotely" role:"setting"`
	Timeouts         timeouts.Value `tfsdk:"timeouts" role:"setting"`
	Tags             types.Set      `tfsdk:"tags" role:"setting"`
	Candidate        types.Bool     `tfsdk:"candidate" role:"setting"`
	ImageDigestCheck types.String   `tfsdk:"image_digest_check" role:"setting"`

	Status      types.String `tfsdk:"status" role:"result"`
	Detail      types.String `tfsdk:"detail" role:"result"`
	Stage       types.String `tfsdk:"stage" role:"result"`
	Logs        types.List   `tfsdk:"logs" role:"result"`
	LastBuiltAt types.String `tfsdk:"last_built_at" role:"result"`
	BuildID     types.String `tfsdk:"build_id" role:"result"`
	BuildRef    types.Object `tfsdk:"build_ref" role:"result"`

	ID                types.String `tfsdk:"id" role:"output"`
	TemplateRef       types.Object `tfsdk:"template_ref" role:"output"`
	ImageDigest       types.String `tfsdk:"image_digest" role:"output"`
	SandboxEntrypoint types.List   `tfsdk:"sandbox_entrypoint" role:"output"`
	SandboxEnv        types.Map    `tfsdk:"sandbox_env" role:"output"`
	SandboxWorkdir    types.String `tfsdk:"sandbox_workdir" role:"output"`
	SandboxUser       types.String `tfsdk:"sandbox_user" role:"output"`
}

var templateRefAttrTypes = map[string]attr.Type{"provider": types.StringType, "value": types.StringType}

// spec maps the planned values onto the builder core. Write-only secrets are null in plans, so they
// come from config, the only place Terraform ever sends them.
func (m templateModel) spec(ctx context.Context, config templateModel) (builders.TemplateSpec, diag.Diagnostics) {
	var diags diag.Diagnostics
	spec := builders.TemplateSpec{
		TemplateID:   m.TemplateID.ValueString(),
		Image:        m.Image.ValueString(),
		StartCmd:     m.StartCmd.ValueStringPointer(),
		ReadyCmd:     m.ReadyCmd.ValueString(),
		CPUCount:     int(m.CPUCount.ValueInt64()),
		MemoryMB:     int(m.MemoryMB.ValueInt64()),
		GPUCount:     int(m.GPUCount.ValueInt64()),
		BaseTemplate: m.BaseTemplate.ValueString(),
		Dockerfile:   m.Dockerfile.ValueString(),
		ForceRebuild: m.ForceRebuild.ValueBool(),
	}
	diags.Append(m.Packages.ElementsAs(ctx, &spec.Packages, false)...)
	spec.Steps, _ = stepsOf(m.Steps)
	spec.ReadyCheck = readyCheckOf(m.ReadyCheck)
	if !m.MinFreeDiskMB.IsNull() && !m.MinFreeDiskMB.IsUnknown() {
		minFree := int(m.MinFreeDiskMB.ValueInt64())
		spec.MinFreeDiskMB = &minFree
	}
	if !m.DiskGB.IsNull() && !m.DiskGB.IsUnknown() {
		disk := int(m.DiskGB.ValueInt64())
		spec.DiskGB = &disk
	}
	if !m.RebuildTriggers.IsNull() && !m.RebuildTriggers.IsUnknown() {
		diags.Append(m.RebuildTriggers.ElementsAs(ctx, &spec.RebuildTriggers, false)...)
	}
	diags.Append(m.tagSpec(ctx, &spec)...)
	auth, authDiags := registryAuth(m.RegistryAuth, config.RegistryAuth)
	diags.Append(authDiags...)
	spec.RegistryAuth = auth
	return spec, diags
}

// setResult records a build outcome in the model's computed attributes.
func (m *templateModel) setResult(result builders.TemplateBuildResult, at time.Time) {
	m.ID = m.TemplateID
	m.Status = types.StringValue(string(result.Status))
	m.Detail = types.StringValue(result.Detail)
	m.Stage = types.StringValue(string(result.Stage))
	m.Logs = logTail(nil)
	if result.Status == builders.StatusFailed {
		// Only a failure's log earns its place in state: Terraform rewrites the whole state file
		// after every resource it changes, so a success's log tail would be written N times over
		// in a large apply and fill every rebuild's plan; the backend keeps the full log anyway.
		m.Logs = logTail(result.Logs)
	}
	m.LastBuiltAt = types.StringValue(at.UTC().Format(time.RFC3339))
	m.BuildID = types.StringNull()
	if result.BuildID != "" {
		m.BuildID = types.StringValue(result.BuildID)
	}
	m.BuildRef = buildRefValue(m.Backend, m.TemplateID, result.BuildID)
	m.TemplateRef = templateRefValue(result.TemplateRef)
	m.SandboxEntrypoint = sandboxEntrypointValue(m.Backend, m.StartCmd)
	m.setStepsOutputs()
}

// unknownResult marks what a build sets (the results) as known only after apply.
func (m *templateModel) unknownResult() {
	for _, f := range templateCodec().withRole(roleResult) {
		m.set(f, f.unknown)
	}
	if refNamesBuild(m.Backend) {
		m.TemplateRef = types.ObjectUnknown(templateRefAttrTypes) // the build names it
	}
	m.filesHashFromBuild()
}

// setPending records a create still waiting for its build: the template exists.
func (m *templateModel) setPending(ref builders.TemplateRef, at time.Time) {
	m.setResult(builders.TemplateBuildResult{TemplateRef: &ref,
		Detail: "the template exists; its build had not finished when this state was saved"}, at)
	m.Status = types.StringValue(statusBuilding)
}

// setResultAttributes writes what setResult sets (the results and outputs), one by one: an
// import's state has no model to set as a whole.
func (m templateModel) setResultAttributes(ctx context.Context, s attributeSetter) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, f := range append(templateCodec().withRole(roleResult), templateCodec().withRole(roleOutput)...) {
		diags.Append(s.SetAttribute(ctx, path.Root(f.name), m.value(f))...)
	}
	return diags
}

func templateRefValue(ref *builders.TemplateRef) types.Object {
	if ref == nil {
		return types.ObjectNull(templateRefAttrTypes)
	}
	return types.ObjectValueMust(templateRefAttrTypes, map[string]attr.Value{
		"provider": types.StringValue(string(ref.Provider)), "value": types.StringValue(ref.Value)})
}

func logTail(logs []string) types.List {
	if len(logs) > maxLogLines {
		logs = logs[len(logs)-maxLogLines:]
	}
	values := make([]attr.Value, len(logs))
	for i, line := range logs {
		if len(line) > maxLogLineLen {
			line = strings.ToValidUTF8(line[:maxLogLineLen], "") + "…" // never split a multi-byte character
		}
		values[i] = types.StringValue(line)
	}
	return types.ListValueMust(types.StringType, values)
}

// copyResult keeps the state's build outcome (its results) where no build is made.
func (m *templateModel) copyResult(from templateModel) {
	for _, f := range templateCodec().withRole(roleResult) {
		m.set(f, from.value(f))
	}
	if m.ImageDigest.IsUnknown() {
		m.ImageDigest = from.ImageDigest // no rebuild: the build in state keeps its digest
	}
}

// tagSpec reads tags and candidate into spec; unknown tags are left out (checked again at apply).
func (m templateModel) tagSpec(ctx context.Context, spec *builders.TemplateSpec) diag.Diagnostics {
	spec.Candidate = m.Candidate.ValueBool()
	if m.Tags.IsNull() || m.Tags.IsUnknown() {
		return nil
	}
	diags := m.Tags.ElementsAs(ctx, &spec.Tags, false)
	slices.Sort(spec.Tags) // a set: its order means nothing
	return diags
}

// buildRefValue is the reference to exactly buildID of the template (the build itself where the
// reference names the build), null where the backend has neither tags nor such references or no
// build is recorded.
func buildRefValue(backend, templateID types.String, buildID string) types.Object {
	descriptor, err := backends.Named(backend.ValueString())
	switch {
	case err != nil || buildID == "":
	case descriptor.RefNamesBuild:
		return templateRefValue(&builders.TemplateRef{Provider: descriptor.Name, Value: buildID})
	case descriptor.Tags != nil:
		return templateRefValue(&builders.TemplateRef{Provider: descriptor.Name, Value: descriptor.Tags.Ref(templateID.ValueString(), buildID)})
	}
	return types.ObjectNull(templateRefAttrTypes)
}

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
