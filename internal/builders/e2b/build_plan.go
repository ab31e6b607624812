package e2b

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// buildPlan is everything Build sends for a spec, worked out before any request.
type buildPlan struct {
	create  templateBuildRequestV3
	start   templateBuildStartV2
	secrets []builders.Secret // registry secret values and StepSecrets, scrubbed from anything E2B echoes back
	notes   []string          // deprecations and skipped Dockerfile instructions, for the logs
	uploads []stepUpload      // the files of file steps, sent before the build starts
	// defaultedStart: the start command is DefaultStartCmd because the spec set none, so a
	// failure at the start command can say what to set.
	defaultedStart bool
	// stepLabels name each step sent by where the configuration set it ("" for a Dockerfile's),
	// so a failure at E2B's step N can name it.
	stepLabels []string
}

// planBuild maps spec onto the create and build-start bodies. Sizing gets the core defaults;
// start and ready commands: the spec's (start_cmd = "" sends none), else a Dockerfile's CMD (none
// without one, as the SDKs' fromDockerfile), else, building from an image only, the
// code-interpreter's (defaults.go). A custom start_cmd without
// ready_cmd leaves readiness to E2B's own default (sleep 20 with a start command, sleep 0
// without: orchestrator/pkg/template/build/phases/finalize/ready.go) rather than waiting on a port
// the custom process may never open. A base_template keeps its own commands unless the spec sets
// them (then both: the core refuses one without the other). Steps follow the source: packages (one
// pip step), then the spec's steps, each as E2B's SDK encodes it (steps.go).
func planBuild(spec builders.TemplateSpec) (buildPlan, error) {
	spec = spec.WithDefaults()
	p := buildPlan{
		create: templateBuildRequestV3{Name: spec.TemplateID, Tags: buildTags(spec),
			CPUCount: spec.CPUCount, MemoryMB: spec.MemoryMB, MinFreeDiskMB: spec.MinFreeDiskMB},
		start: templateBuildStartV2{Force: spec.ForceRebuild, Steps: []templateStep{}},
	}
	baseTemplate, dockerfile := legacySources(spec)
	defaultCmds := spec.Image != "" // the design's default is for builds from image only
	switch {
	case spec.Image != "":
		registry, err := registryFor(spec.RegistryAuth)
		if err != nil {
			return p, builders.AtStage(builders.StageRegistryAuth, err)
		}
		p.start.FromImage, p.start.FromImageRegistry, p.secrets = spec.Image, registry.body, registry.secrets
	case baseTemplate != "":
		p.start.FromTemplate = baseTemplate
	default:
		p.notes = append(p.notes, "warning: "+builders.DeprecationMessage("dockerfile"))
		d, err := parseDockerfile(dockerfile)
		if err != nil {
			return p, builders.AtStage(builders.StageValidation, err)
		}
		p.notes = append(p.notes, d.notes...)
		p.start.FromImage, p.start.Steps = d.image, d.steps
		p.start.StartCmd, p.start.ReadyCmd = d.startCmd, d.readyCmd
	}
	p.secrets = append(p.secrets, spec.StepSecrets()...)
	if err := p.addSteps(spec.BuildSteps()); err != nil {
		return p, builders.AtStage(builders.StageValidation, err)
	}
	switch startCmd, defaulted := spec.StartCommand(DefaultStartCmd); {
	case !defaulted:
		p.start.StartCmd, p.start.ReadyCmd = startCmd, ""
	case defaultCmds:
		p.start.StartCmd, p.start.ReadyCmd, p.defaultedStart = DefaultStartCmd, DefaultReadyCmd, true
	}
	if ready := spec.ReadyCommand(); ready != "" {
		p.start.ReadyCmd = ready
	}
	return p, nil
}

// addSteps appends the spec's steps as the SDK encodes them, with each file step's files and
// filesHash for its upload.
func (p *buildPlan) addSteps(steps []builders.SpecStep) error {
	p.stepLabels = make([]string, len(p.start.Steps))
	for _, s := range steps {
		step := sdkStep(s.BuildStep)
		if s.File != nil {
			files, err := s.File.Files()
			if err != nil {
				return fmt.Errorf("%s: %w", s.Describe(), err)
			}
			hash, err := s.File.Hash() // read with the files (TemplateSpec.Resolved)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Describe(), err)
			}
			step.Args[0], step.FilesHash = files.Src, hash
			p.uploads = append(p.uploads, stepUpload{hash: hash, files: files, step: s})
		}
		p.start.Steps = append(p.start.Steps, step)
		p.stepLabels = append(p.stepLabels, s.Describe())
	}
	return nil
}

// legacySources reads the sources other than image: base_template, and the deprecated dockerfile
// (built with a deprecation line in the logs): the one place this package touches them.
func legacySources(spec builders.TemplateSpec) (baseTemplate, dockerfile string) {
	return spec.BaseTemplate, spec.Dockerfile //nolint:staticcheck // deprecated for users, still honoured here
}

// explain is what a failure of the plan's build can say beyond E2B's reason.
func (p buildPlan) explain() failureHints {
	h := failureHints{stepLabels: p.stepLabels}
	if p.defaultedStart {
		h.startHint = defaultStartCmdHint
	}
	return h
}

// failureHints explain a failed build: startHint is added to a failure at the start or ready
// command when the start command was the default one, saying what to set instead; stepLabels name
// the configuration's step behind E2B's step number.
type failureHints struct {
	startHint  string
	stepLabels []string
}

// step names E2B's step ("base", "3", "finalize") with the configuration's step when it is one.
func (h failureHints) step(step string) string {
	if n, err := strconv.Atoi(step); err == nil && n >= 1 && n <= len(h.stepLabels) && h.stepLabels[n-1] != "" {
		return step + ", " + h.stepLabels[n-1]
	}
	return step
}

// refusedStepsHint explains a build start refused because of its steps: some E2B-compatible servers
// build from an image or template only and answer 400 "steps are not supported". It names the
// configuration's first step, so the user knows what that server cannot build.
func (p buildPlan) refusedStepsHint(err error) string {
	e, ok := apihttp.AsError(err)
	if !ok || e.StatusCode != http.StatusBadRequest || !strings.Contains(strings.ToLower(e.Message), "step") {
		return ""
	}
	var labels []string
	for _, label := range p.stepLabels {
		if label != "" {
			labels = append(labels, label)
		}
	}
	if len(labels) == 0 {
		return ""
	}
	return fmt.Sprintf("; this server does not build steps, so it cannot build %s (the first of %d): remove packages and steps, "+
		"or use an E2B server that builds them (E2B's own does)", labels[0], len(labels))
}
