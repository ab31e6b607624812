package builders

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Defaults applied when a spec leaves cpu_count or memory_mb unset (zero), so that a build's
// fingerprint does not tell unset from the default. They are E2B's SDK defaults (Template.build:
// cpuCount 2, memoryMB 1024); backends that do not size templates ignore both.
const (
	DefaultSandboxCPUCount = 2
	DefaultSandboxMemoryMB = 1024
)

// TemplateSpec is everything a backend needs to build (or find) one template. Each field says,
// where it is declared, its name in the schema (field) and its role:
//   - identity: which template it is;
//   - input: what a build is made from: it counts in Fingerprint, and a change rebuilds;
//   - credential: how to reach what the build reads: rotating it must not rebuild;
//   - setting: how this run builds, or names the build, not what the build makes.
//
// Adding a build input is adding a field here (role input), its validation and its backend
// mapping: the fingerprint, the warnings and the provider's rebuild decision follow the role.
type TemplateSpec struct {
	TemplateID   string       `field:"template_id" role:"identity"`
	Image        string       `field:"image" role:"input"`
	RegistryAuth RegistryAuth `field:"registry_auth" role:"credential"` // nil: a public image
	Packages     []string     `field:"packages" role:"input"`
	// Steps run in order after the source and after Packages (build_step.go).
	Steps []BuildStep `field:"steps" role:"input"`
	// StartCmd is the command every sandbox of the template starts with. nil means the backend's
	// default (its code-interpreter's start command when building from image); a pointer to ""
	// means no start command at all. Read it through StartCommand.
	StartCmd *string `field:"start_cmd" role:"input"`
	ReadyCmd string  `field:"ready_cmd" role:"input"`
	// ReadyCheck is a typed ready command, instead of ReadyCmd. Read both through ReadyCommand.
	ReadyCheck *ReadyCheck `field:"ready_check" role:"input"`
	CPUCount   int         `field:"cpu_count" role:"input"` // 0 means DefaultSandboxCPUCount
	MemoryMB   int         `field:"memory_mb" role:"input"` // 0 means DefaultSandboxMemoryMB
	// MinFreeDiskMB is the free disk space E2B leaves after the steps (nil: the team's default).
	MinFreeDiskMB *int `field:"min_free_disk_mb" role:"input"`
	// DiskGB is each sandbox's disk in whole GB where the backend sizes it per template (nil: the
	// backend's default); GPUCount its GPUs (0: none).
	DiskGB   *int `field:"disk_gb" role:"input"`
	GPUCount int  `field:"gpu_count" role:"input"`

	// BaseTemplate builds on an existing E2B template (the SDK's fromTemplate), such as
	// code-interpreter-v1.
	BaseTemplate string `field:"base_template" role:"input"`
	// Dockerfile builds from Dockerfile content. A deprecated input (use Image and Packages).
	Dockerfile string `field:"dockerfile" role:"input"`

	ForceRebuild bool `field:"force_rebuild" role:"setting"`

	// RebuildTriggers are arbitrary values whose change asks for a rebuild: inputs of the build
	// that the backend never sees, so they count in Fingerprint.
	RebuildTriggers map[string]string `field:"rebuild_triggers" role:"input"`

	// Tags are extra tags every build gets (a release, a git SHA), where the backend has tags.
	Tags []string `field:"tags" role:"setting"`
	// Candidate builds do not go live: they get Tags and not the tag the plain template name
	// resolves to, so consumers of the name keep the build they had (TagRules.Live).
	Candidate bool `field:"candidate" role:"setting"`

	fingerprint string // Fingerprint, computed once (Resolved)
}

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

// Spec fields that name where a build starts from: exactly one is set.
const (
	SourceImage        = "image"
	SourceBaseTemplate = "base_template"
	SourceDockerfile   = "dockerfile"
)

var sourceFields = []string{SourceImage, SourceBaseTemplate, SourceDockerfile}

// Validate checks the spec for backend b and returns every problem, each on its field.
func (s TemplateSpec) Validate(b *Backend) FieldErrors {
	errs := b.ValidateTemplateID(s.TemplateID)
	errs = append(errs, s.validateSource(b)...)
	if s.Image != "" {
		if err := ValidateImageReference(s.Image); err != nil {
			errs = append(errs, FieldError{Field: "image", Message: err.Error()})
		}
	}
	if s.RegistryAuth != nil && s.Image == "" {
		errs = append(errs, FieldError{Field: "registry_auth", Reads: []string{"image"},
			Message: "only applies to image; set image or remove registry_auth"})
	}
	errs = append(errs, ValidateRegistryAuth(s.RegistryAuth, s.Image)...)
	for i, pkg := range s.Packages {
		if problem := PackageProblem(pkg); problem != "" {
			errs = append(errs, FieldError{Field: fmt.Sprintf("packages[%d]", i), Message: problem})
		}
	}
	errs = append(errs, s.validateTags(b)...)
	startCmd, _ := s.StartCommand("")
	for _, cmd := range []struct{ field, value string }{{"start_cmd", startCmd}, {"ready_cmd", s.ReadyCmd}} {
		if strings.ContainsRune(cmd.value, 0) {
			errs = append(errs, FieldError{Field: cmd.field,
				Message: "must not contain a NUL character: a command reaches the sandbox as a C string, which ends at the first one"})
		}
	}
	type size struct {
		field string
		value int
	}
	sizes := []size{{"cpu_count", s.CPUCount}, {"memory_mb", s.MemoryMB}, {"gpu_count", s.GPUCount}}
	if s.MinFreeDiskMB != nil { // E2B carries disk sizes as 32-bit MiB too (DiskSizeMB, format int32)
		sizes = append(sizes, size{"min_free_disk_mb", *s.MinFreeDiskMB})
	}
	if s.DiskGB != nil {
		sizes = append(sizes, size{"disk_gb", *s.DiskGB})
	}
	for _, size := range sizes {
		if b.Uses(size.field) && size.value > math.MaxInt32 {
			errs = append(errs, FieldError{Field: size.field,
				Message: fmt.Sprintf("must be at most %d (build APIs carry it as a 32-bit integer), got %d", math.MaxInt32, size.value)})
		}
	}
	errs = append(errs, s.validateSteps()...)
	if s.ReadyCheck != nil {
		errs = append(errs, s.ReadyCheck.problems()...)
		if s.ReadyCmd != "" {
			errs = append(errs, FieldError{Field: "ready_check", Reads: []string{"ready_cmd"}, Message: "set ready_check or ready_cmd, not both"})
		}
	}
	if s.MinFreeDiskMB != nil && *s.MinFreeDiskMB < 0 {
		errs = append(errs, FieldError{Field: "min_free_disk_mb", Message: fmt.Sprintf("must be 0 or more, got %d", *s.MinFreeDiskMB)})
	}
	if s.DiskGB != nil && *s.DiskGB < 1 {
		errs = append(errs, FieldError{Field: "disk_gb", Message: fmt.Sprintf("must be 1 or more, got %d", *s.DiskGB)})
	}
	if s.GPUCount < 0 {
		errs = append(errs, FieldError{Field: "gpu_count", Message: fmt.Sprintf("must be 0 or more, got %d", s.GPUCount)})
	}
	if b.Check != nil {
		errs = append(errs, b.Check(s)...)
	}
	return errs
}

// validateSource enforces one source the backend builds from: image, or one of the deprecated
// base_template / dockerfile where the backend takes them.
func (s TemplateSpec) validateSource(b *Backend) FieldErrors {
	if !b.Builds() {
		return nil // nothing is built: no source is needed
	}
	values := map[string]string{SourceImage: s.Image, SourceBaseTemplate: s.BaseTemplate, SourceDockerfile: s.Dockerfile}
	var set []string
	for _, field := range sourceFields {
		if strings.TrimSpace(values[field]) != "" {
			set = append(set, field)
		}
	}
	switch {
	case len(set) == 0:
		return FieldErrors{{Field: b.Sources[0], Reads: sourceFields,
			Message: "is required: set one of " + strings.Join(b.Sources, ", ") + " (the " + b.Title + " backend builds templates from it)"}}
	case len(set) > 1:
		return FieldErrors{{Field: set[1], Reads: sourceFields,
			Message: fmt.Sprintf("set exactly one of %s, got %s", strings.Join(sourceFields, ", "), strings.Join(set, " and "))}}
	case !slices.Contains(b.Sources, set[0]):
		return FieldErrors{{Field: set[0], Reads: sourceFields,
			Message: unsupportedSource(b, set[0])}}
	}
	return nil
}

func unsupportedSource(b *Backend, field string) string {
	msg := "the " + b.Title + " backend does not build from " + field
	if reason := b.Ignored[field]; reason != "" {
		msg += " (" + reason + ")"
	}
	return msg + "; set " + strings.Join(b.Sources, " or ")
}
