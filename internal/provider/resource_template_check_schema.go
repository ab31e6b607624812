package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// defaultCheckTimeout bounds a check that sets no timeout: starting its sandbox and every command.
const defaultCheckTimeout = "5m"

// checkSandboxMargin is how much longer than the check's timeout its sandbox lives when nobody
// ends it (the CLI was killed): the backend's own timeout, after which the sandbox goes anyway.
const checkSandboxMargin = time.Minute

// templateCheckModel is a sandbox_template_check: one run of commands in a sandbox started from
// one build, recorded once it passed.
type templateCheckModel struct {
	ID                types.String `tfsdk:"id"`
	TemplateRef       types.Object `tfsdk:"template_ref"`
	Commands          types.List   `tfsdk:"commands"`
	Timeout           types.String `tfsdk:"timeout"`
	SandboxEnv        types.Map    `tfsdk:"sandbox_env"`
	SandboxEntrypoint types.List   `tfsdk:"sandbox_entrypoint"`
	SandboxWorkdir    types.String `tfsdk:"sandbox_workdir"`
	SandboxUser       types.String `tfsdk:"sandbox_user"`
	BuildID           types.String `tfsdk:"build_id"`
	CheckedAt         types.String `tfsdk:"checked_at"`
	Results           types.List   `tfsdk:"results"`
}

type checkCommandModel struct {
	Run            types.String `tfsdk:"run"`
	ExpectExitCode types.Int64  `tfsdk:"expect_exit_code"`
	ExpectOutput   types.String `tfsdk:"expect_output"`
}

var checkResultAttrTypes = map[string]attr.Type{"run": types.StringType, "exit_code": types.Int64Type, "passed": types.BoolType, "output": types.StringType}

// checkingBackends are the backends whose builds a check can start.
func checkingBackends() []*builders.Backend {
	return backends.Where(func(b *builders.Backend) bool { return b.Checks })
}

func templateCheckSchema() schema.Schema {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	return schema.Schema{
		MarkdownDescription: "A check of one build of a sandbox template: it starts a sandbox from the build exactly as the " +
			"template's consumers would, runs `commands` in it in order, stops at the first that fails and always ends the " +
			"sandbox (on success, failure, timeout and Ctrl-C; when the CLI is killed, the backend ends it at its own " +
			"timeout, and on OpenSandbox the next check of the template deletes it). A failure fails the apply, naming the command, its exit " +
			"code and the end of its output, and records nothing. A passing check records `build_id`, so a " +
			"`sandbox_template_tag` whose `target` is the check's `build_id` only moves to a build that passed. Any change of " +
			"its arguments, or a new build to check, replaces it: it runs again. A check costs one sandbox for the length of " +
			"its run. Backends: " + backtickList(checkingBackends()) + ".",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The id of the sandbox the check ran in (deleted since).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"template_ref": schema.SingleNestedAttribute{Required: true,
				MarkdownDescription: "The build to check, as the template outputs it. A reference to exactly one build where the " +
					"backend has one: `sandbox_template.x.build_ref` (E2B, `<template_id>:<build_id>`; a plain name or a tag, " +
					"which move, are refused). On Daytona `sandbox_template.x.template_ref` is one build already (the snapshot's " +
					"name). Elsewhere, `sandbox_template.x.template_ref`: an OpenSandbox snapshot name, " +
					"checked as the newest Ready snapshot of the name when the check runs, or a Bedrock code interpreter id. A " +
					"plan that finds the name serving another snapshot than the one checked replaces the check, with a warning; " +
					"so that the apply that rebuilds the template also checks the new snapshot, add " +
					"`lifecycle { replace_triggered_by = [sandbox_template.x.build_id] }`. Changing it replaces the check.",
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
				Attributes: map[string]schema.Attribute{
					"provider": schema.StringAttribute{Required: true, MarkdownDescription: "Backend of the template: " + backtickList(backends.All) + "."},
					"value":    schema.StringAttribute{Required: true, MarkdownDescription: "The reference's value."},
				}},
			"commands": schema.ListNestedAttribute{Required: true,
				MarkdownDescription: "Commands run in order through a shell in the sandbox, as the template's user, in its " +
					"working directory, with its environment. Each passes when it exits with `expect_exit_code` and its output " +
					"matches `expect_output`; the first that does not fails the check, and the rest do not run. Changing them " +
					"replaces the check.",
				PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"run": schema.StringAttribute{Required: true, MarkdownDescription: "The command, e.g. `python -c 'import pandas'`."},
					"expect_exit_code": schema.Int64Attribute{Optional: true,
						MarkdownDescription: "The exit code that passes. Defaults to 0."},
					"expect_output": schema.StringAttribute{Optional: true,
						MarkdownDescription: "A regular expression ([Go syntax](https://pkg.go.dev/regexp/syntax)) that the command's " +
							"output (stdout and stderr, the last 64 KiB) must match, e.g. `ok` or `(?m)^Python 3\\.12`."},
				}}},
			"timeout": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(defaultCheckTimeout),
				MarkdownDescription: "How long the whole check may take, starting the sandbox included, as a Go duration. " +
					"Defaults to `" + defaultCheckTimeout + "`. The sandbox's own timeout is this plus " + checkSandboxMargin.String() +
					", so it ends even if the CLI is killed. Changing it replaces the check.",
				PlanModifiers: replace},
			"sandbox_env": schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType,
				MarkdownDescription: "The environment consumers start sandboxes with: pass the template's `sandbox_env`. Changing it replaces the check.",
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()}},
			"sandbox_entrypoint": schema.ListAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "OpenSandbox: the entrypoint consumers start sandboxes with: pass the template's " +
					"`sandbox_entrypoint`. Without it a sandbox restored from a snapshot runs `tail -f /dev/null`. Changing it replaces the check.",
				PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()}},
			"sandbox_workdir": schema.StringAttribute{Optional: true,
				MarkdownDescription: "OpenSandbox: the working directory of the commands: pass the template's `sandbox_workdir`. Changing it replaces the check.",
				PlanModifiers:       replace},
			"sandbox_user": schema.StringAttribute{Optional: true,
				MarkdownDescription: "OpenSandbox: the user the commands run as: pass the template's `sandbox_user`. Changing it replaces the check.",
				PlanModifiers:       replace},
			"build_id": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The build that passed the check: E2B's build id, the OpenSandbox snapshot id, the Daytona snapshot name, the Bedrock " +
					"code interpreter id. Use it as a `sandbox_template_tag`'s `target` so the tag moves only after a pass."},
			"checked_at": schema.StringAttribute{Computed: true, MarkdownDescription: "RFC 3339 time the check passed."},
			"results": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "What each command came to, in order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"run":       schema.StringAttribute{Computed: true, MarkdownDescription: "The command."},
					"exit_code": schema.Int64Attribute{Computed: true, MarkdownDescription: "Its exit code."},
					"passed":    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether it passed."},
					"output": schema.StringAttribute{Computed: true, MarkdownDescription: fmt.Sprintf("The last %d lines of its output, "+
						"scrubbed of the values that may be credentials (the rule of `steps`: `sandbox_env` values of %d characters "+
						"or more, URL credentials in the commands).", builders.CheckTailLines, builders.MinEnvSecretLength)},
				}}},
		},
	}
}

// commands are the model's commands for the core; unknown values are left empty (checked at apply).
func (m templateCheckModel) commands(ctx context.Context) ([]builders.CheckCommand, diag.Diagnostics) {
	var listed []checkCommandModel
	diags := m.Commands.ElementsAs(ctx, &listed, false)
	commands := make([]builders.CheckCommand, len(listed))
	for i, c := range listed {
		commands[i] = builders.CheckCommand{Run: c.Run.ValueString(), ExpectExitCode: int(c.ExpectExitCode.ValueInt64()), ExpectOutput: c.ExpectOutput.ValueString()}
	}
	return commands, diags
}

// ref is template_ref's provider and value ("" where unknown or null).
func (m templateCheckModel) ref() (provider, value string, known bool) {
	if m.TemplateRef.IsNull() || m.TemplateRef.IsUnknown() {
		return "", "", false
	}
	attrs := m.TemplateRef.Attributes()
	p, pOK := attrs["provider"].(types.String)
	v, vOK := attrs["value"].(types.String)
	if !pOK || !vOK || p.IsUnknown() || v.IsUnknown() || p.IsNull() || v.IsNull() {
		return "", "", false
	}
	return p.ValueString(), v.ValueString(), true
}

// timeout is the check's timeout; ok is false when it is no positive duration.
func (m templateCheckModel) timeout() (time.Duration, bool) {
	d, err := time.ParseDuration(m.Timeout.ValueString())
	return d, err == nil && d > 0
}

// request is what a consumer of the template passes, for the build the check starts.
func (m templateCheckModel) request(ctx context.Context, target builders.CheckTarget, build string, timeout time.Duration) (builders.SandboxRequest, diag.Diagnostics) {
	req := builders.SandboxRequest{TemplateID: target.TemplateID, Build: build, Workdir: m.SandboxWorkdir.ValueString(),
		User: m.SandboxUser.ValueString(), Lifetime: timeout + checkSandboxMargin, Labels: builders.CheckLabels(target.TemplateID)}
	var diags diag.Diagnostics
	if !m.SandboxEnv.IsNull() {
		diags.Append(m.SandboxEnv.ElementsAs(ctx, &req.Env, false)...)
	}
	if !m.SandboxEntrypoint.IsNull() {
		diags.Append(m.SandboxEntrypoint.ElementsAs(ctx, &req.Entrypoint, false)...)
	}
	return req, diags
}

// record sets what a passing check records.
func (m *templateCheckModel) record(report builders.CheckReport, build string, at time.Time) {
	results := make([]attr.Value, len(report.Results))
	for i, r := range report.Results {
		results[i] = types.ObjectValueMust(checkResultAttrTypes, map[string]attr.Value{"run": types.StringValue(r.Run),
			"exit_code": types.Int64Value(int64(r.ExitCode)), "passed": types.BoolValue(r.Passed), "output": types.StringValue(r.Output)})
	}
	m.ID, m.BuildID = types.StringValue(report.SandboxID), types.StringValue(build)
	m.CheckedAt = types.StringValue(at.UTC().Format(time.RFC3339))
	m.Results = types.ListValueMust(types.ObjectType{AttrTypes: checkResultAttrTypes}, results)
}
