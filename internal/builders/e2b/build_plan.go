package e2b

import (
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// buildPlan is everything Build sends for a spec, worked out before any request.
type buildPlan struct {
	create  templateBuildRequestV3
	start   templateBuildStartV2
	secrets []builders.Secret // registry secret values, scrubbed from anything E2B echoes back
	notes   []string          // deprecations and skipped Dockerfile instructions, for the logs
	// defaultedStart: the start command is DefaultStartCmd because the spec set none, so a
	// failure at the start command can say what to set.
	defaultedStart bool
}

// planBuild maps spec onto the create and build-start bodies. Sizing gets the core defaults;
// start and ready commands: the spec's (start_cmd = "" sends none), else a Dockerfile's CMD (none
// without one, as the SDKs' fromDockerfile), else, building from an image only, the
// code-interpreter's (defaults.go). A custom start_cmd without
// ready_cmd leaves readiness to E2B's own default (sleep 20 with a start command, sleep 0
// without: orchestrator/pkg/template/build/phases/finalize/ready.go) rather than waiting on a port
// the custom process may never open. A base_template keeps its own commands unless the spec sets
// them (then both: the core refuses one without the other).
func planBuild(spec builders.TemplateSpec) (buildPlan, error) {
	spec = spec.WithDefaults()
	p := buildPlan{
		create: templateBuildRequestV3{Name: spec.TemplateID, Tags: buildTags(spec),
			CPUCount: spec.CPUCount, MemoryMB: spec.MemoryMB},
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
		p.notes = append(p.notes, "warning: "+builders.DeprecationMessage("base_template"))
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
	if len(spec.Packages) > 0 {
		p.start.Steps = append(p.start.Steps, pipInstallStep(spec.Packages))
	}
	switch startCmd, defaulted := spec.StartCommand(DefaultStartCmd); {
	case !defaulted:
		p.start.StartCmd, p.start.ReadyCmd = startCmd, ""
	case defaultCmds:
		p.start.StartCmd, p.start.ReadyCmd, p.defaultedStart = DefaultStartCmd, DefaultReadyCmd, true
	}
	if spec.ReadyCmd != "" {
		p.start.ReadyCmd = spec.ReadyCmd
	}
	return p, nil
}

// legacySources reads the deprecated sources, which E2B still builds (with a deprecation line in
// the logs): the one place this package touches them.
func legacySources(spec builders.TemplateSpec) (baseTemplate, dockerfile string) {
	return spec.BaseTemplate, spec.Dockerfile //nolint:staticcheck // deprecated for users, still honoured here
}

// startHint is added to a failure at the start or ready command when the start command was the
// default one, saying what to set instead.
func (p buildPlan) startHint() string {
	if p.defaultedStart {
		return defaultStartCmdHint
	}
	return ""
}
