package builders

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// BuildStep is one step of a template's build, run in order after the source (image or base
// template): the steps of E2B's Template SDK (js-sdk template/index.ts), which both building
// backends run. Exactly one kind is set.
type BuildStep struct {
	Run      *RunStep          `json:",omitempty"`
	Apt      *AptStep          `json:",omitempty"`
	Pip      *PipStep          `json:",omitempty"`
	Npm      *NpmStep          `json:",omitempty"`
	Env      map[string]string `json:",omitempty"` // environment variables for the steps after it (sandboxes get them through StepsContext)
	Workdir  *string           `json:",omitempty"` // the working directory from here on (relative: to the current one)
	User     *string           `json:",omitempty"` // the user the steps after it run as, created when missing
	GitClone *GitCloneStep     `json:",omitempty"`
	File     *FileStep         `json:",omitempty"`
	// Force runs the step even when E2B has its layer cached; E2B then rebuilds every step after it
	// too (orchestrator template/build/builder.go forceSteps). OpenSandbox runs every step anyway.
	Force bool `json:",omitempty"`
}

// RunStep runs a shell command, as User when set (else as the current user).
type RunStep struct {
	Command string
	User    string `json:",omitempty"`
}

// AptStep installs Debian packages as root.
type AptStep struct {
	Packages            []string
	NoInstallRecommends bool `json:",omitempty"`
}

// PipStep installs Python packages: as root into the system (Global, the default, as the SDK's
// pipInstall) or with --user for the current user.
type PipStep struct {
	Packages []string
	Global   *bool `json:",omitempty"` // nil: true
}

// IsGlobal tells whether the packages go to the system, as root.
func (p PipStep) IsGlobal() bool { return p.Global == nil || *p.Global }

// NpmStep installs Node packages: in the current directory, or with -g as root.
type NpmStep struct {
	Packages []string
	Global   bool `json:",omitempty"`
}

// GitCloneStep clones a repository into Path (git's default folder when empty).
type GitCloneStep struct {
	URL    string
	Branch string `json:",omitempty"`
	Depth  int    `json:",omitempty"` // 0: the whole history
	Path   string `json:",omitempty"`
	User   string `json:",omitempty"`
}

// FileStep places a local file or folder (Source), or inline Content, at Destination in the
// template. Mode is octal ("0644"); Owner is "user" or "user:group".
type FileStep struct {
	Source      string  `json:",omitempty"`
	Content     *string `json:",omitempty"`
	Destination string
	Mode        string `json:",omitempty"`
	Owner       string `json:",omitempty"`

	read *readFiles // what it places, read once (TemplateSpec.Resolved); nil: read on each use
}

// Step kinds as HCL spells them, in the order the schema lists them.
const (
	StepRun      = "run"
	StepApt      = "apt"
	StepPip      = "pip"
	StepNpm      = "npm"
	StepEnv      = "env"
	StepWorkdir  = "workdir"
	StepUser     = "user"
	StepGitClone = "git_clone"
	StepFile     = "file"
)

// StepKinds are every kind of step.
var StepKinds = []string{StepRun, StepApt, StepPip, StepNpm, StepEnv, StepWorkdir, StepUser, StepGitClone, StepFile}

// kinds lists the kinds set on the step.
func (s BuildStep) kinds() []string {
	set := map[string]bool{StepRun: s.Run != nil, StepApt: s.Apt != nil, StepPip: s.Pip != nil, StepNpm: s.Npm != nil,
		StepEnv: s.Env != nil, StepWorkdir: s.Workdir != nil, StepUser: s.User != nil, StepGitClone: s.GitClone != nil,
		StepFile: s.File != nil}
	var kinds []string
	for _, k := range StepKinds {
		if set[k] {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// Kind is the step's kind ("" when not exactly one is set).
func (s BuildStep) Kind() string {
	if k := s.kinds(); len(k) == 1 {
		return k[0]
	}
	return ""
}

// String describes the step for logs and errors: "apt ffmpeg libgl1", "run `make install`", with
// the step's possible credentials redacted ("git_clone https://[REDACTED]@github.com/org/app").
func (s BuildStep) String() string { return Scrub(s.describe(), s.Secrets()...) }

func (s BuildStep) describe() string {
	switch s.Kind() {
	case StepRun:
		return "run `" + s.Run.Command + "`"
	case StepApt:
		return "apt " + strings.Join(s.Apt.Packages, " ")
	case StepPip:
		return "pip " + strings.Join(s.Pip.Packages, " ")
	case StepNpm:
		return "npm " + strings.Join(s.Npm.Packages, " ")
	case StepEnv:
		return "env " + strings.Join(slices.Sorted(maps.Keys(s.Env)), " ")
	case StepWorkdir:
		return "workdir " + *s.Workdir
	case StepUser:
		return "user " + *s.User
	case StepGitClone:
		return "git_clone " + s.GitClone.URL
	case StepFile:
		return "file " + s.File.Destination
	}
	return "step"
}

// SortedEnv returns an env step's variables in key order: HCL maps have no order, so this is the
// order every backend sets them in.
func (s BuildStep) SortedEnv() [][2]string {
	vars := make([][2]string, 0, len(s.Env))
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		vars = append(vars, [2]string{k, s.Env[k]})
	}
	return vars
}

// PackagesStep is the pip step `packages` is the short form of: it runs before Steps.
func PackagesStep(packages []string) BuildStep {
	return BuildStep{Pip: &PipStep{Packages: packages}}
}

// SpecStep is one step a build runs, with where the configuration set it.
type SpecStep struct {
	BuildStep
	Field string // "packages" or "steps[i]"
}

// BuildSteps are the steps a build of the spec runs, in order: packages (one pip step), then Steps.
func (s TemplateSpec) BuildSteps() []SpecStep {
	var out []SpecStep
	if len(s.Packages) > 0 {
		out = append(out, SpecStep{BuildStep: PackagesStep(s.Packages), Field: "packages"})
	}
	for i, step := range s.Steps {
		out = append(out, SpecStep{BuildStep: step, Field: fmt.Sprintf("steps[%d]", i)})
	}
	return out
}

// Describe names a step for an error: "steps[2] (apt ffmpeg)".
func (s SpecStep) Describe() string { return s.Field + " (" + s.String() + ")" }
