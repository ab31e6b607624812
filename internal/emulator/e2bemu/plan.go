package e2bemu

import (
	"fmt"
	"strings"
	"time"
)

// outcome is what a started build will do, decided from its request and what its image holds.
type outcome struct {
	entries    []buildLogEntry // logged when the build starts (timestamps filled in then)
	failure    string          // "" for a build that ends ready
	failedStep string          // the reason's step: "base", a step number, "finalize" or ""
	source     contents        // what the built template holds, for builds from it
	startCmd   string          // the start metadata the template ends with
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

// planBuild decides how a build started with req from base ends; callers hold s.mu.
func (s *Server) planBuild(t *tmpl, req TemplateBuildStartV2, base baseTemplate) outcome {
	var o outcome
	if req.FromImage != nil {
		o.info("base", "Building template %s from image %s", t.id, *req.FromImage)
	} else {
		o.info("base", "Building template %s from template %s", t.id, deref(req.FromTemplate))
	}
	o.source = base.contents
	if reason, step, ok := s.faults.takeBuildFailure(t.alias); ok {
		o.failAt(step, "", reason)
		return o
	}
	if req.FromImage != nil {
		if reason := pullFailure(*req.FromImage, req.FromImageRegistry); reason != "" {
			o.failAt("base", "", reason)
			return o
		}
	}
	if !s.runSteps(&o, req, base) {
		return o
	}
	o.finalize(base, req)
	return o
}

// runSteps builds the base, user and step layers, taking cached ones from the team's cache, and
// tells whether every step succeeded. A step that is built is checked as its command checks it
// (step_commands.go); a RUN runs as `/bin/bash -l -c <command>` (commands/run.go), and a missing
// program exits 127.
func (s *Server) runSteps(o *outcome, req TemplateBuildStartV2, base baseTemplate) bool {
	parent := s.baseLayer(req, base)
	o.layer(parent, "base")
	parent = s.userLayer(req, parent)
	o.layer(parent, "base")
	forced := forcedSteps(req)
	for i, step := range req.Steps {
		l := s.stepLayer(i+1, step, parent.Hash, forced[i])
		if !l.Cached {
			if problem := s.stepProblem(step); problem != "" {
				o.failAt(l.Step, "", problem)
				return false
			}
			if exe := ""; strings.EqualFold(step.Type, "RUN") {
				if exe = base.missing(step.Args[0]); exe != "" {
					o.failAt(l.Step, notFound(l.Step, exe), fmt.Sprintf("failed to run command '%s': exit status 127", step.Args[0]))
					return false
				}
			}
		}
		o.layer(l, fmt.Sprintf("builder %d/%d", i+1, len(req.Steps)))
		parent = l
	}
	return true
}

// finalize is phases/finalize/builder.go: a start or ready command in the request replaces the start
// metadata of the template the build starts from; with no start command the ready command defaults
// to "sleep 0", with one to "sleep 20" (ready.go).
func (o *outcome) finalize(base baseTemplate, req TemplateBuildStartV2) {
	o.startCmd, o.readyCmd, o.hasStart = base.startCmd, base.readyCmd, base.startCmd != "" || base.readyCmd != ""
	if start, ready := deref(req.StartCmd), deref(req.ReadyCmd); start != "" || ready != "" {
		o.startCmd, o.readyCmd, o.hasStart = start, ready, true
	}
	if !o.hasStart {
		return
	}
	if o.startCmd != "" {
		o.info("finalize", "Running start command: %s", o.startCmd)
		if exe := base.missing(o.startCmd); exe != "" {
			o.failAt("finalize", notFound("start", exe), "start command failed: error running start command: exit status 127")
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
	if exe := base.missing(ready); exe != "" { // retried every 2 s for 10 minutes, then given up
		o.failAt("finalize", notFound("ready", exe), "ready command failed: ready command timed out after 10m0s")
	}
}

// notFound is the stderr line bash prints for a missing program, as the build log carries it
// (sandboxtools/command.go logStream: "[<id>] [stderr]: <line>").
func notFound(id, exe string) string {
	msg := exe + ": command not found"
	if strings.HasPrefix(exe, "/") {
		msg = exe + ": No such file or directory"
	}
	return fmt.Sprintf("[%s] [stderr]: /bin/bash: line 1: %s", id, msg)
}

// buildBase is what a build starts from: its image's contents, or the template it names. A base
// template that cannot be used is refused with the message the build then fails with.
func (s *Server) buildBase(req TemplateBuildStartV2) (baseTemplate, string) {
	if req.FromImage != nil {
		return baseTemplate{contents: imageContents(*req.FromImage)}, ""
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
		base, public := builtinTemplates[identifier] // E2B's public templates have only a default build
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
	return baseTemplate{contents: b.plan.source, startCmd: b.plan.startCmd, readyCmd: b.plan.readyCmd, buildID: b.id}, ""
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
