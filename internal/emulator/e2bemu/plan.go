package e2bemu

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// outcome is what a started build will do, decided from its request and what its image holds.
type outcome struct {
	entries    []buildLogEntry       // logged when the build starts (timestamps filled in then)
	failure    string                // "" for a build that ends ready
	failedStep string                // the reason's step: "base", a step number, "finalize" or ""
	final      layerState            // the filesystem and context the template ends with, for sandboxes and builds from it
	states     map[string]layerState // what each layer it builds leaves, by cache key (saved with the layer)
	startCmd   string                // the start metadata the template ends with
	readyCmd   string
	hasStart   bool
	layers     []LayerInfo // base, default user and steps, as far as the build gets (layers.go)
	built      []string    // keys of the layers it builds, cached for the team once it ends
}

// layer logs l as the orchestrator does and records it; a layer it builds is cached once the build ends.
func (o *outcome) layer(l LayerInfo, prefix string) {
	o.info(l.Step, "%s", l.logLine(prefix))
	o.layers = append(o.layers, l)
	if !l.Cached {
		o.built = append(o.built, l.Hash)
	}
}

func (o *outcome) info(step, format string, args ...any) {
	o.entries = append(o.entries, buildLogEntry{Level: "info", Step: step, Message: fmt.Sprintf(format, args...)})
}

func (o *outcome) failAt(step, stderr, reason string) {
	if stderr != "" {
		o.entries = append(o.entries, buildLogEntry{Level: "error", Step: step, Message: stderr})
	}
	o.failure, o.failedStep = reason, step
}

func (o outcome) logs(at time.Time) []buildLogEntry {
	out := make([]buildLogEntry, len(o.entries))
	for i, e := range o.entries {
		e.Timestamp = at
		out[i] = e
	}
	return out
}

// planBuild decides how a build started with req from base ends, by running it: the base, the
// default user, each step and finalize run in a sandboxos machine (build_machine.go). Callers hold s.mu.
func (s *Server) planBuild(t *tmpl, req TemplateBuildStartV2, base baseTemplate) outcome {
	o := outcome{states: map[string]layerState{}}
	if req.FromImage != nil {
		o.info("base", "Building template %s from image %s", t.id, *req.FromImage)
	} else {
		o.info("base", "Building template %s from template %s", t.id, deref(req.FromTemplate))
	}
	if reason, step, ok := s.faults.takeBuildFailure(t.alias); ok {
		o.failAt(step, "", reason)
		return o
	}
	st, ok := s.runSteps(&o, req, base)
	if !ok {
		return o
	}
	o.finalize(st, base, req)
	return o
}

// runSteps builds the base, user and step layers, taking cached ones (and what they left) from
// the team's cache, and tells whether every step succeeded. A step that is built is checked as
// its command checks it (step_commands.go), then run in the machine: a RUN as
// `/bin/bash -l -c <command>` (commands/run.go), failing the build with a non-zero exit.
func (s *Server) runSteps(o *outcome, req TemplateBuildStartV2, base baseTemplate) (layerState, bool) {
	parent := s.baseLayer(req, base)
	st, ok := s.cachedState(parent)
	if !ok {
		var problem string
		if st, problem = s.baseState(req, base); problem != "" {
			o.failAt("base", "", problem)
			return layerState{}, false
		}
	}
	o.layer(parent, "base")
	o.keep(parent, st)
	parent = s.userLayer(req, parent)
	if cached, ok := s.cachedState(parent); ok {
		st = cached
	} else if stderr, problem := userStep(&st, defaultUserName, true); problem != "" {
		o.failAt("base", stderr, problem)
		return layerState{}, false
	}
	o.layer(parent, "base")
	o.keep(parent, st)
	forced := forcedSteps(req)
	for i, step := range req.Steps {
		l := s.stepLayer(i+1, step, parent.Hash, forced[i])
		if cached, ok := s.cachedState(l); ok {
			st = cached
		} else {
			if problem := s.stepProblem(step); problem != "" {
				o.failAt(l.Step, "", problem)
				return layerState{}, false
			}
			if stderr, problem := s.runStep(&st, step); problem != "" {
				o.failAt(l.Step, stderrLines(l.Step, stderr), problem)
				return layerState{}, false
			}
		}
		o.layer(l, fmt.Sprintf("builder %d/%d", i+1, len(req.Steps)))
		o.keep(l, st)
		parent = l
	}
	return st, true
}

// cachedState is what a cached layer left, when the team's cache has it.
func (s *Server) cachedState(l LayerInfo) (layerState, bool) {
	st, ok := s.layerStates[l.Hash]
	if !l.Cached || !ok {
		return layerState{}, false
	}
	return st.clone(), true
}

// keep records what a layer left, saved with the layer when the build ends.
func (o *outcome) keep(l LayerInfo, st layerState) {
	if !l.Cached {
		o.states[l.Hash] = st.clone()
	}
}

// baseState is the base phase when its layer is not cached: a pulled and provisioned image, or the
// base template's filesystem. Only here is the image pulled, so only here are the registry's
// credentials checked: a cached base (its key holds the image's name and no credentials,
// phases/base/hash.go) is taken as it is and nothing is pulled (phases/phase.go runPhase returns a
// cached layer before Build; core/rootfs/rootfs.go CreateExt4Filesystem, the pull, runs in Build).
func (s *Server) baseState(req TemplateBuildStartV2, base baseTemplate) (layerState, string) {
	if req.FromImage == nil {
		return base.state.clone(), ""
	}
	if reason := pullFailure(*req.FromImage, req.FromImageRegistry); reason != "" {
		return layerState{}, reason
	}
	img, pullErr := s.catalogue.Resolve(*req.FromImage)
	if pullErr != nil {
		return layerState{}, pullProblem(pullErr)
	}
	m, problem := provision(img)
	if problem != "" {
		return layerState{}, problem
	}
	return layerState{machine: m, ctx: stepContext{user: "root", env: map[string]string{}}}, ""
}

// runStep runs one step in st, changing it as the step's command does; it returns the step's
// stderr and the build's reason when the step fails.
func (s *Server) runStep(st *layerState, step TemplateStep) (stderr, problem string) {
	args := step.Args
	switch strings.ToUpper(step.Type) {
	case "RUN":
		user := ""
		if len(args) > 1 {
			user = args[1]
		}
		r := runCommand(*st, args[0], user, false)
		if r.ExitCode != 0 {
			return r.Stderr, fmt.Sprintf("failed to run command '%s': exit status %d", args[0], r.ExitCode)
		}
	case "ENV", "ARG":
		return envStep(st, args)
	case "WORKDIR":
		return workdirStep(st, args[0])
	case "USER":
		return userStep(st, args[0], len(args) > 1 && args[1] == "true")
	case "COPY", "ADD":
		return copyStep(st, args, s.fileData[*step.FilesHash])
	}
	return "", ""
}

// finalize is phases/finalize/builder.go: configure.sh opens /usr/local and /code to everyone,
// then a start or ready command in the request replaces the start metadata of the template the
// build starts from; with no start command the ready command defaults to "sleep 0", with one to
// "sleep 20" (ready.go). Both run as the last user, in the last working directory, with the last
// environment the steps set.
func (o *outcome) finalize(st layerState, base baseTemplate, req TemplateBuildStartV2) {
	_ = st.machine.Run(context.Background(), "mkdir -p /code && chmod -R 777 /usr/local /code", sandboxos.Process{})
	o.final = st
	o.startCmd, o.readyCmd, o.hasStart = base.startCmd, base.readyCmd, base.startCmd != "" || base.readyCmd != ""
	if start, ready := deref(req.StartCmd), deref(req.ReadyCmd); start != "" || ready != "" {
		o.startCmd, o.readyCmd, o.hasStart = start, ready, true
	}
	if !o.hasStart {
		return
	}
	if o.startCmd != "" {
		o.info("finalize", "Running start command: %s", o.startCmd)
		if r := runCommand(st, o.startCmd, "", true); r.ExitCode != 0 {
			o.failAt("finalize", stderrLines("start", r.Stderr), fmt.Sprintf("start command failed: error running start command: exit status %d", r.ExitCode))
			return
		}
	}
	ready := o.readyCmd
	if ready == "" {
		ready = "sleep 0"
		if o.startCmd != "" {
			ready = "sleep 20"
		}
	}
	o.info("finalize", "Waiting for template to be ready: %s", ready)
	if r := runCommand(st, ready, "", false); r.ExitCode != 0 { // retried every 2 s for 10 minutes, then given up
		o.failAt("finalize", stderrLines("ready", r.Stderr), "ready command failed: ready command timed out after 10m0s")
	}
}

// stderrLines is a command's stderr as the build log carries it (sandboxtools/command.go
// logStream: "[<id>] [stderr]: <line>"), one entry's text.
func stderrLines(id, stderr string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if line != "" {
			out = append(out, fmt.Sprintf("[%s] [stderr]: %s", id, line))
		}
	}
	return strings.Join(out, "\n")
}

// buildBase is what a build starts from: its image's contents, or the template it names. A base
// template that cannot be used is refused with the message the build then fails with.
func (s *Server) buildBase(req TemplateBuildStartV2) (baseTemplate, string) {
	if req.FromImage != nil {
		return baseTemplate{}, ""
	}
	return s.fromTemplate(*req.FromTemplate)
}

// fromTemplate resolves a base template as template-manager/create_template.go setTemplateSource
// does: as sandbox creation resolves a template (resolveBuild), else one of E2B's public templates.
// Callers hold s.mu.
func (s *Server) fromTemplate(ref string) (baseTemplate, string) {
	identifier, tag, err := parseName(ref)
	if err != nil {
		return baseTemplate{}, "invalid template reference: " + err.Error()
	}
	t, b, refused := s.resolveBuild(identifier, tag)
	if t == nil {
		base, public := builtinTemplate(identifier) // E2B's public templates have only a default build
		switch {
		case !public:
			return baseTemplate{}, refused
		case tag != "":
			return baseTemplate{}, fmt.Sprintf("tag '%s' does not exist for template '%s'", tag, identifier)
		}
		return base, ""
	}
	if refused != "" {
		return baseTemplate{}, refused
	}
	state := b.plan.final
	if state.machine == nil { // a seeded build: E2B's base template's filesystem
		base, _ := builtinTemplate("base")
		state = base.state
	}
	return baseTemplate{state: state, startCmd: b.plan.startCmd, readyCmd: b.plan.readyCmd, buildID: b.id}, ""
}

// resolveBuild is how E2B finds the build a template reference starts from: the name as
// alias_cache.go Resolve finds it (the team's, a promoted template, an id), then the newest ready
// build carrying the tag, or the build the tag names by id, visible to the team (cache/templates/
// cache.go Get; errors.go words the refusals: another team's private template is "not found", as a
// missing one). t is nil when no template has the name. Callers hold s.mu.
func (s *Server) resolveBuild(identifier, tag string) (t *tmpl, b *build, refused string) {
	t = s.resolve(identifier)
	if t == nil {
		return nil, nil, fmt.Sprintf("template '%s' not found", identifier)
	}
	matched := identifier // the key that resolved: a team's alias resolves with its namespace
	if namespace, alias := splitIdentifier(identifier); namespace == "" && !t.foreign && t.alias == alias {
		matched = s.opts.TeamSlug + "/" + alias
	}
	if t.foreign && !t.public {
		return t, nil, fmt.Sprintf("template '%s' not found", matched)
	}
	if b = t.readyBuild(tag); b == nil {
		return t, nil, fmt.Sprintf("tag '%s' does not exist for template '%s'", orDefault(tag), matched)
	}
	return t, b, ""
}
