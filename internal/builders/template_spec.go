package builders

import (
	"errors"
	"fmt"
	"strings"
)

// Defaults applied when a spec leaves cpu_count or memory_mb unset (zero). They are E2B's own SDK
// defaults (Template.build: cpuCount 2, memoryMB 1024), the only backend here that sizes templates.
const (
	DefaultSandboxCPUCount = 2
	DefaultSandboxMemoryMB = 1024
)

// TemplateSpec is everything a backend needs to build (or find) one template.
type TemplateSpec struct {
	TemplateID   string
	Image        string
	RegistryAuth *RegistryAuth
	Packages     []string
	// StartCmd is the command every sandbox of the template starts with. nil means the backend's
	// default (its code-interpreter's start command when building from image); a pointer to ""
	// means no start command at all. Read it through StartCommand.
	StartCmd *string
	ReadyCmd string
	CPUCount int // 0 means DefaultSandboxCPUCount
	MemoryMB int // 0 means DefaultSandboxMemoryMB

	// BaseTemplate builds on an existing template. A deprecated input (use Image); still supported,
	// so it is not marked Deprecated for Go callers that must keep passing it through.
	BaseTemplate string
	// Dockerfile builds from Dockerfile content. A deprecated input (use Image and Packages).
	Dockerfile string

	// RebuildTriggers are arbitrary values whose change asks for a rebuild: inputs of the build
	// that the backend never sees, so they count in Fingerprint.
	RebuildTriggers map[string]string

	ForceRebuild bool
}

// StartReadyWithBaseTemplate is the rule for commands on a base template: E2B replaces the base's
// start metadata as a whole when either command is set (orchestrator/pkg/template/build/phases/
// finalize/builder.go), so setting one alone would silently drop the base's start command.
const StartReadyWithBaseTemplate = "start_cmd and ready_cmd: with base_template, set both or neither; " +
	"E2B replaces the base template's start and ready commands together, so setting one alone drops the other"

// StartCommand returns the start command to use: the spec's own, or backendDefault when the spec
// leaves it unset (defaulted is then true, so a failure can say where the command came from).
func (s TemplateSpec) StartCommand(backendDefault string) (cmd string, defaulted bool) {
	if s.StartCmd == nil {
		return backendDefault, true
	}
	return *s.StartCmd, false
}

// WithDefaults returns the spec with unset sizing filled in.
func (s TemplateSpec) WithDefaults() TemplateSpec {
	if s.CPUCount == 0 {
		s.CPUCount = DefaultSandboxCPUCount
	}
	if s.MemoryMB == 0 {
		s.MemoryMB = DefaultSandboxMemoryMB
	}
	return s
}

// Validate checks the spec for the given backend and returns every problem at once.
func (s TemplateSpec) Validate(p SandboxProvider) error {
	var errs []error
	if err := ValidateTemplateID(p, s.TemplateID); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, s.validateSource(p)...)
	if s.Image != "" {
		if err := ValidateImageReference(s.Image); err != nil {
			errs = append(errs, err)
		}
	}
	if s.RegistryAuth != nil {
		if s.Image == "" {
			errs = append(errs, errors.New("registry_auth: only applies to image; set image or remove registry_auth"))
		} else if err := s.RegistryAuth.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	for i, pkg := range s.Packages {
		if problem := PackageProblem(pkg); problem != "" {
			errs = append(errs, fmt.Errorf("packages[%d]: %s", i, problem))
		}
	}
	if problem := CPUCountProblem(int64(s.CPUCount)); s.CPUCount != 0 && problem != "" {
		errs = append(errs, errors.New("cpu_count: "+problem))
	}
	if problem := MemoryMBProblem(int64(s.MemoryMB)); s.MemoryMB != 0 && problem != "" {
		errs = append(errs, errors.New("memory_mb: "+problem))
	}
	if s.BaseTemplate != "" && (s.StartCmd == nil) != (s.ReadyCmd == "") {
		errs = append(errs, errors.New(StartReadyWithBaseTemplate))
	}
	return errors.Join(errs...)
}

// validateSource enforces one image source: image, or one of the deprecated base_template / dockerfile.
func (s TemplateSpec) validateSource(p SandboxProvider) []error {
	if p == ProviderBedrock {
		return nil // Bedrock has no templates to build: no source is needed
	}
	var sources []string
	for name, value := range map[string]string{"image": s.Image, "base_template": s.BaseTemplate, "dockerfile": s.Dockerfile} {
		if strings.TrimSpace(value) != "" {
			sources = append(sources, name)
		}
	}
	switch {
	case len(sources) == 0:
		return []error{errors.New("image: is required (or the deprecated base_template / dockerfile)")}
	case len(sources) > 1:
		return []error{fmt.Errorf("image: set exactly one of image, base_template or dockerfile, got %d", len(sources))}
	case p == ProviderOpenSandbox && s.Image == "":
		return []error{errors.New("image: OpenSandbox snapshots a sandbox started from an image; base_template and dockerfile are not supported there")}
	}
	return nil
}
