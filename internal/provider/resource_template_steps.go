package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// steps is a list of objects, each setting one attribute named after its kind: the order of a
// build is the order of the list, a step reads as what it does (`{ apt = { packages = [...] } }`),
// and each kind has exactly the options E2B's SDK gives it. The core checks every step
// (builders/build_step_validate.go); the schema only types them.
func stepsAttribute() schema.Attribute {
	str := func(required bool, description string) schema.StringAttribute {
		return schema.StringAttribute{Required: required, Optional: !required, MarkdownDescription: description}
	}
	packages := func(what string) schema.ListAttribute {
		return schema.ListAttribute{Required: true, ElementType: types.StringType, MarkdownDescription: what}
	}
	user := str(false, "User to run it as; default: the current user (the last `user` step's, else root on OpenSandbox and E2B's `user` on E2B).")
	return schema.ListNestedAttribute{Optional: true,
		MarkdownDescription: "Build steps, run in order after the source and after `packages`, as E2B's Template SDK runs them; " +
			"each step sets exactly one of `run`, `apt`, `pip`, `npm`, `env`, `workdir`, `user`, `git_clone` or `file`. " +
			"E2B caches each step's layer, so a change rebuilds only from the changed step on. OpenSandbox runs every step " +
			"in the builder sandbox before the snapshot. The credential in any URL of a step or command " +
			"(`https://x-access-token:TOKEN@host`, `https://TOKEN@host`) shows as `" + builders.Redacted + "` in build logs, errors " +
			"and progress; pass it from a `sensitive` variable so the plan masks it too. See the build steps guide.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			builders.StepRun: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Run a shell command (the SDK's `runCmd`).",
				Attributes: map[string]schema.Attribute{
					"command": str(true, "The command, run with `bash`."),
					"user":    user,
				}},
			builders.StepApt: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Install Debian packages with `apt-get`, as root (the SDK's `aptInstall`).",
				Attributes: map[string]schema.Attribute{
					"packages": packages("Package names, each optionally `name=version`."),
					"no_install_recommends": schema.BoolAttribute{Optional: true,
						MarkdownDescription: "Pass `--no-install-recommends`. Default `false`."},
				}},
			builders.StepPip: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Install Python packages with `pip` (the SDK's `pipInstall`). `packages` is the short form of one such step, run first.",
				Attributes: map[string]schema.Attribute{
					"packages": packages("PEP 508 requirements, e.g. `pandas==2.2.3`."),
					"global": schema.BoolAttribute{Optional: true,
						MarkdownDescription: "`true` (the default): into the system's Python, as root; `false`: `--user`, for the current user."},
				}},
			builders.StepNpm: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Install Node packages with `npm` (the SDK's `npmInstall`).",
				Attributes: map[string]schema.Attribute{
					"packages": packages("Package specs, e.g. `typescript@5`."),
					"global": schema.BoolAttribute{Optional: true,
						MarkdownDescription: "`true`: `-g`, as root; `false` (the default): into the working directory, as the current user."},
				}},
			builders.StepEnv: schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Set environment variables for the steps after it (the SDK's `setEnvs`), set in name order. " +
					"The template's sandboxes do not get them by themselves, on any backend: pass `sandbox_env` when starting one. " +
					"E2B expands `$NAME` in a value; OpenSandbox takes values as written and refuses `$`. " +
					fmt.Sprintf("A value of %d characters or more may be a credential: build logs, errors and progress show it as `%s` "+
						"(shorter ones, such as `Agg`, stay readable).", builders.MinEnvSecretLength, builders.Redacted)},
			builders.StepWorkdir: schema.StringAttribute{Optional: true,
				MarkdownDescription: "Working directory of the steps after it and of the template's sandboxes (on OpenSandbox through " +
					"`sandbox_workdir`), created when missing (the SDK's `setWorkdir`); relative to the current one."},
			builders.StepUser: schema.StringAttribute{Optional: true,
				MarkdownDescription: "User of the steps after it and of the template's sandboxes (on OpenSandbox through `sandbox_user`), " +
					"created when missing (the SDK's `setUser`). On E2B the start and ready commands run as the last one, and a user " +
					"this step creates has no sudo (only `root` and E2B's `user` do), so with the default start command (`sudo ...`) " +
					"the plan fails on the step: end the steps with `{ user = \"root\" }` or set `start_cmd`."},
			builders.StepGitClone: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Clone a git repository (the SDK's `gitClone`).",
				Attributes: map[string]schema.Attribute{
					"url":    str(true, "Repository URL."),
					"branch": str(false, "Branch or tag to clone alone (`--branch ... --single-branch`)."),
					"depth": schema.Int64Attribute{Optional: true, MarkdownDescription: "Shallow clone of this many commits.",
						Validators: []validator.Int64{int64validator.AtLeast(1)}},
					"path": str(false, "Where to clone to; default: git's, a folder named after the repository in the working directory."),
					"user": user,
				}},
			builders.StepFile: schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Place a local file or folder, or inline content, in the template (the SDK's `copy`). " +
					"A change to the files' content, mode or names changes `files_hash` and rebuilds the template.",
				Attributes: map[string]schema.Attribute{
					"source": str(false, "Local file or folder, e.g. `\"${path.module}/files/app\"`; a folder's contents are "+
						"merged into `destination`. It must exist at plan time. A `.dockerignore` is not read."),
					"content":     str(false, "Inline content, instead of `source`."),
					"destination": str(true, "Path in the template; relative to the working directory. A file source goes into a destination ending with `/`."),
					"mode":        str(false, "Octal mode, e.g. `\"0755\"`; default: the source's own, `0644` for `content`."),
					"owner":       str(false, "`user` or `user:group`; default: the current user."),
				}},
			"force": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Run this step on every build instead of reusing E2B's cached layer; E2B then rebuilds every step " +
					"after it too. Pair it with `rebuild_triggers` to re-run, say, a `git_clone` when a commit moves. OpenSandbox runs every step anyway."},
		}},
	}
}

// stepsOf reads the steps of a configuration or plan; the indexes of steps not yet known come
// back in unknown (their entries are empty).
func stepsOf(list types.List) (steps []builders.BuildStep, unknown []int) {
	if list.IsNull() || list.IsUnknown() {
		return nil, nil
	}
	for i, element := range list.Elements() {
		obj, ok := element.(types.Object)
		if !ok || !knownDeep(obj) {
			steps, unknown = append(steps, builders.BuildStep{}), append(unknown, i)
			continue
		}
		steps = append(steps, stepOf(obj.Attributes()))
	}
	return steps, unknown
}

func stepOf(a map[string]attr.Value) builders.BuildStep {
	s := builders.BuildStep{Force: boolOf(a["force"]), Env: mapOfStrings(a["env"]), Workdir: stringPtr(a[builders.StepWorkdir]),
		User: stringPtr(a[builders.StepUser])}
	if o, ok := object(a[builders.StepRun]); ok {
		s.Run = &builders.RunStep{Command: stringOf(o["command"]), User: stringOf(o["user"])}
	}
	if o, ok := object(a[builders.StepApt]); ok {
		s.Apt = &builders.AptStep{Packages: listOfStrings(o["packages"]), NoInstallRecommends: boolOf(o["no_install_recommends"])}
	}
	if o, ok := object(a[builders.StepPip]); ok {
		s.Pip = &builders.PipStep{Packages: listOfStrings(o["packages"])}
		if g, ok := o["global"].(types.Bool); ok && !g.IsNull() {
			s.Pip.Global = g.ValueBoolPointer()
		}
	}
	if o, ok := object(a[builders.StepNpm]); ok {
		s.Npm = &builders.NpmStep{Packages: listOfStrings(o["packages"]), Global: boolOf(o["global"])}
	}
	if o, ok := object(a[builders.StepGitClone]); ok {
		s.GitClone = &builders.GitCloneStep{URL: stringOf(o["url"]), Branch: stringOf(o["branch"]), Depth: int(int64Of(o["depth"])),
			Path: stringOf(o["path"]), User: stringOf(o["user"])}
	}
	if o, ok := object(a[builders.StepFile]); ok {
		s.File = &builders.FileStep{Source: stringOf(o["source"]), Content: stringPtr(o["content"]), Destination: stringOf(o["destination"]),
			Mode: stringOf(o["mode"]), Owner: stringOf(o["owner"])}
	}
	return s
}

// readyCheckOf reads ready_check (nil when unset).
func readyCheckOf(v types.Object) *builders.ReadyCheck {
	o, ok := object(v)
	if !ok {
		return nil
	}
	return &builders.ReadyCheck{Port: int(int64Of(o["port"])), URL: stringOf(o["url"]), StatusCode: int(int64Of(o["status_code"])),
		Process: stringOf(o["process"]), File: stringOf(o["file"]), Timeout: stringOf(o["timeout"])}
}

// knownDeep tells whether v and everything in it is known.
func knownDeep(v attr.Value) bool {
	if v.IsUnknown() {
		return false
	}
	var inner []attr.Value
	switch t := v.(type) {
	case types.Object:
		for _, a := range t.Attributes() {
			inner = append(inner, a)
		}
	case types.List:
		inner = t.Elements()
	case types.Map:
		for _, e := range t.Elements() {
			inner = append(inner, e)
		}
	}
	for _, e := range inner {
		if !knownDeep(e) {
			return false
		}
	}
	return true
}

// object is the attributes of a set object (ok false for null, unknown or another type).
func object(v attr.Value) (map[string]attr.Value, bool) {
	o, ok := v.(types.Object)
	if !ok || o.IsNull() || o.IsUnknown() {
		return nil, false
	}
	return o.Attributes(), true
}

func stringOf(v attr.Value) string {
	s, _ := v.(types.String)
	return s.ValueString()
}

func stringPtr(v attr.Value) *string {
	s, _ := v.(types.String)
	return s.ValueStringPointer()
}

func boolOf(v attr.Value) bool {
	b, _ := v.(types.Bool)
	return b.ValueBool()
}

func int64Of(v attr.Value) int64 {
	n, _ := v.(types.Int64)
	return n.ValueInt64()
}

func listOfStrings(v attr.Value) []string {
	l, ok := v.(types.List)
	if !ok || l.IsNull() {
		return nil
	}
	out := make([]string, 0, len(l.Elements()))
	for _, e := range l.Elements() {
		out = append(out, stringOf(e))
	}
	return out
}

func mapOfStrings(v attr.Value) map[string]string {
	m, ok := v.(types.Map)
	if !ok || m.IsNull() {
		return nil
	}
	out := make(map[string]string, len(m.Elements()))
	for k, e := range m.Elements() {
		out[k] = stringOf(e)
	}
	return out
}
