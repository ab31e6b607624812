package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
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

// stepsOutputs are those attributes' values for a backend and steps.
type stepsOutputs struct {
	filesHash types.String
	env       types.Map
	workdir   types.String
	user      types.String

	filesUnreadable bool // a file step's files could not be read (yet: something may write them)
}

// stepsOutputsOf reads the files of file steps for files_hash only when readFiles is set: a build
// records the hash of the files it read (prepare).
func stepsOutputsOf(backend types.String, steps types.List, readFiles bool) stepsOutputs {
	list, unknown := stepsOf(steps)
	if backend.IsUnknown() || steps.IsUnknown() || len(unknown) > 0 {
		return stepsOutputs{filesHash: types.StringUnknown(), env: types.MapUnknown(types.StringType), workdir: types.StringUnknown(),
			user: types.StringUnknown()}
	}
	spec := builders.TemplateSpec{Steps: list}
	out := stepsOutputs{filesHash: types.StringUnknown(), env: types.MapNull(types.StringType), workdir: types.StringNull(), user: types.StringNull()}
	if readFiles {
		hash, unreadable := spec.FilesHash()
		out.filesHash, out.filesUnreadable = optionalString(hash), unreadable != nil
	}
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

// filesHashOf is files_hash of a spec: null without file steps.
func filesHashOf(spec builders.TemplateSpec) types.String {
	hash, _ := spec.FilesHash() // an unreadable file counts by the reason: files_hash records it
	return optionalString(hash)
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
	out := stepsOutputsOf(m.Backend, m.Steps, m.FilesHash.IsUnknown())
	if m.FilesHash.IsUnknown() {
		m.FilesHash = out.filesHash
	}
	m.SandboxEnv, m.SandboxWorkdir, m.SandboxUser = out.env, out.workdir, out.user
}

// planStepsOutputs plans the outputs of the plan's steps, once per plan (the files of file steps
// are read from disk, so an edited file changes files_hash though the configuration did not; files
// that cannot be read yet leave it unknown), and tells whether any differs from what the plan held.
func (m *templateModel) planStepsOutputs() bool {
	out := stepsOutputsOf(m.Backend, m.Steps, true)
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
