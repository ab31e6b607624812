package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// Attributes that follow from the steps alone, so they are known at plan time: files_hash (the
// files file steps place, read from disk, so an edited file rebuilds the template) and what an
// OpenSandbox snapshot cannot keep (sandbox_env, sandbox_workdir, sandbox_user).

func stepsOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"files_hash": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Digest of the files the `file` steps place (content, mode and names), read at plan time: " +
				"a change rebuilds the template. Null without `file` steps."},
		// Sensitive as a whole: Terraform strips the marks of sensitive variables before a provider
		// sees the configuration, so the provider cannot tell which values came from one.
		"sandbox_env": schema.MapAttribute{Computed: true, Sensitive: true, ElementType: types.StringType,
			MarkdownDescription: "OpenSandbox: the environment the `env` steps set, to pass as `env` when starting a sandbox " +
				"from the snapshot (a snapshot keeps files only; E2B keeps it in the template). Known at plan time. Null " +
				"without `env` steps and for other backends. Sensitive, whatever its values: an `env` step is where " +
				"API keys go, and a provider is never told which configuration values are sensitive, so the plan " +
				"shows `(sensitive value)` and an `output` of it needs `sensitive = true`."},
		"sandbox_workdir": schema.StringAttribute{Computed: true,
			MarkdownDescription: "OpenSandbox: the working directory the last `workdir` step set (absolute), for the commands " +
				"run in a sandbox from the snapshot (execd's `cwd`). Known at plan time. Null without `workdir` steps and for other backends."},
		"sandbox_user": schema.StringAttribute{Computed: true,
			MarkdownDescription: "OpenSandbox: the user the last `user` step set, to run the sandbox's commands as (execd " +
				"takes its uid: `id -u <user>`). Known at plan time. Null without `user` steps (root) and for other backends."},
	}
}

// stepsOutputs are those attributes' values for a backend and steps.
type stepsOutputs struct {
	filesHash types.String
	env       types.Map
	workdir   types.String
	user      types.String
}

func stepsOutputsOf(backend types.String, steps types.List) stepsOutputs {
	list, unknown := stepsOf(steps)
	if backend.IsUnknown() || steps.IsUnknown() || len(unknown) > 0 {
		return stepsOutputs{types.StringUnknown(), types.MapUnknown(types.StringType), types.StringUnknown(), types.StringUnknown()}
	}
	spec := builders.TemplateSpec{Steps: list}
	out := stepsOutputs{filesHash: optionalString(spec.FilesHash()), env: types.MapNull(types.StringType),
		workdir: types.StringNull(), user: types.StringNull()}
	if descriptor, err := backends.Named(backend.ValueString()); err != nil || descriptor.SandboxEntrypoint == nil {
		return out // the backend keeps the steps' context in the template
	}
	c := spec.StepsContext()
	if c.Env != nil {
		values := make(map[string]attr.Value, len(c.Env))
		for k, v := range c.Env {
			values[k] = types.StringValue(v)
		}
		out.env = types.MapValueMust(types.StringType, values)
	}
	out.workdir, out.user = optionalString(c.Workdir), optionalString(c.User)
	return out
}

func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// setStepsOutputs records the outputs of the model's steps; a value the plan knew is kept, so
// files changed between plan and apply cannot make the apply inconsistent with its plan.
func (m *templateModel) setStepsOutputs() {
	out := stepsOutputsOf(m.Backend, m.Steps)
	if m.FilesHash.IsUnknown() {
		m.FilesHash = out.filesHash
	}
	m.SandboxEnv, m.SandboxWorkdir, m.SandboxUser = out.env, out.workdir, out.user
}

// planStepsOutputs plans the outputs of the plan's steps, once per plan (the files of file steps
// are read from disk, so an edited file changes files_hash though the configuration did not), and
// tells whether any differs from what the plan held.
func (m *templateModel) planStepsOutputs() bool {
	out := stepsOutputsOf(m.Backend, m.Steps)
	moved := !m.FilesHash.Equal(out.filesHash) || !m.SandboxEnv.Equal(out.env) || !m.SandboxWorkdir.Equal(out.workdir) ||
		!m.SandboxUser.Equal(out.user)
	m.FilesHash, m.SandboxEnv, m.SandboxWorkdir, m.SandboxUser = out.filesHash, out.env, out.workdir, out.user
	return moved
}

// stepsChanged tells whether a step, the ready check, the disk minimum or a placed file changed.
func stepsChanged(plan, state templateModel) bool {
	return !plan.Steps.Equal(state.Steps) || !plan.ReadyCheck.Equal(state.ReadyCheck) ||
		!plan.MinFreeDiskMB.Equal(state.MinFreeDiskMB) || !plan.FilesHash.Equal(state.FilesHash)
}
