package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// Attributes that follow from the steps alone, so they are known at plan time: files_hash (the
// files file steps place, read from disk, so an edited file rebuilds the template; known at plan
// only when the plan keeps the build, see filesHashFromBuild) and what the template's sandboxes do
// not get by themselves: the environment, on every backend that builds (E2B keeps a template's
// user and workdir for its sandboxes but not its ENV: finalize/builder.go:155-181, envd
// init.go:268-271; a snapshot keeps none), and the working directory and user, where a snapshot
// cannot keep them (sandbox_workdir, sandbox_user: backends with a SandboxEntrypoint).

func stepsOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"files_hash": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Digest of the files the `file` steps place (content, mode and names), read at plan time: " +
				"a change rebuilds the template. Known after apply when the plan builds the template (a create or a rebuild): " +
				"the build places the files as they are then, so a file that a resource of the configuration writes during " +
				"the apply, or that is edited after the plan, is built and recorded. Null without `file` steps."},
		// Sensitive as a whole: Terraform strips the marks of sensitive variables before a provider
		// sees the configuration, so the provider cannot tell which values came from one.
		"sandbox_env": schema.MapAttribute{Computed: true, Sensitive: true, ElementType: types.StringType,
			MarkdownDescription: "The environment the `env` steps set, which the template's sandboxes do not get by " +
				"themselves: `env` steps apply to the later steps of the build only. Pass it when starting a sandbox: on E2B " +
				"as `envs` of `Sandbox.create` (the API's `envVars`; a template keeps its user and working directory, not " +
				"its environment), on OpenSandbox as `env` when starting one from the snapshot (a snapshot keeps files " +
				"only). Values are as written: on E2B the build expanded a `$NAME` in a value, a sandbox gets it literally. " +
				"Known at plan time. Null without `env` steps and for backends that do not build. Sensitive, whatever its values: an `env` step is where " +
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

	filesUnreadable bool // a file step's files could not be read (yet: something may write them)
}

func stepsOutputsOf(backend types.String, steps types.List) stepsOutputs {
	list, unknown := stepsOf(steps)
	if backend.IsUnknown() || steps.IsUnknown() || len(unknown) > 0 {
		return stepsOutputs{filesHash: types.StringUnknown(), env: types.MapUnknown(types.StringType), workdir: types.StringUnknown(),
			user: types.StringUnknown()}
	}
	spec := builders.TemplateSpec{Steps: list}
	filesHash, unreadable := spec.FilesHash()
	out := stepsOutputs{filesHash: optionalString(filesHash), filesUnreadable: unreadable != nil,
		env: types.MapNull(types.StringType), workdir: types.StringNull(), user: types.StringNull()}
	descriptor, err := backends.Named(backend.ValueString())
	if err != nil || !descriptor.Builds() {
		return out
	}
	c := spec.StepsContext()
	if c.Env != nil { // no backend's sandboxes get the build's environment
		values := make(map[string]attr.Value, len(c.Env))
		for k, v := range c.Env {
			values[k] = types.StringValue(v)
		}
		out.env = types.MapValueMust(types.StringType, values)
	}
	if descriptor.ConsumersPassStepsContext { // a snapshot: E2B keeps the user and workdir in the template
		out.workdir, out.user = optionalString(c.Workdir), optionalString(c.User)
	}
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
// are read from disk, so an edited file changes files_hash though the configuration did not; files
// that cannot be read yet leave it unknown), and tells whether any differs from what the plan held.
func (m *templateModel) planStepsOutputs() bool {
	out := stepsOutputsOf(m.Backend, m.Steps)
	if out.filesUnreadable {
		out.filesHash = types.StringUnknown()
	}
	moved := !m.FilesHash.Equal(out.filesHash) || !m.SandboxEnv.Equal(out.env) || !m.SandboxWorkdir.Equal(out.workdir) ||
		!m.SandboxUser.Equal(out.user)
	m.FilesHash, m.SandboxEnv, m.SandboxWorkdir, m.SandboxUser = out.filesHash, out.env, out.workdir, out.user
	return moved
}

// filesHashFromBuild leaves files_hash to the apply in a plan that builds (a create, or a rebuild
// for any reason). The build reads the files at apply, and Terraform plans again then, once the
// resources this one depends on are applied, and refuses as a provider bug any known value that
// moved since the plan it showed: a file a resource of the configuration writes, or one edited
// after the plan, would. The framework does not tell that last plan from the first, nor which
// files a dependency writes, so a plan that keeps the build is the only one that knows the hash
// (the state's: the files did not change, or the plan would build).
func (m *templateModel) filesHashFromBuild() {
	if !m.FilesHash.IsNull() { // no file steps: nothing to read
		m.FilesHash = types.StringUnknown()
	}
}

// stepsChanged tells whether a step, the ready check, the disk minimum or a placed file changed.
func stepsChanged(plan, state templateModel) bool {
	return !plan.Steps.Equal(state.Steps) || !plan.ReadyCheck.Equal(state.ReadyCheck) ||
		!plan.MinFreeDiskMB.Equal(state.MinFreeDiskMB) || !plan.FilesHash.Equal(state.FilesHash)
}
