package builders

import (
	"context"
	"fmt"
	"strings"
)

// CheckTarget is what a check's template_ref names: a template and, where the reference itself
// names one build (a backend with tags: "<template_id>:<build_id>", the template's build_ref; a
// backend whose references name builds: the template_ref itself), that build. On another backend
// the reference is the template id; which build it names is known when the check runs
// (ResolveCheckBuild).
type CheckTarget struct {
	TemplateID string
	Build      string
}

// ParseCheckTarget reads a check's template_ref value for backend b and says what is wrong with it
// ("" when nothing): what plan time can tell without asking the backend.
func ParseCheckTarget(b *Backend, ref string) (CheckTarget, string) {
	if !b.Checks {
		return CheckTarget{}, "the " + b.Title + " backend cannot start sandboxes from its builds yet, so nothing can check them"
	}
	if b.RefNamesBuild { // the reference is one build already: the snapshot a consumer starts
		templateID := b.TemplateOfBuild(ref)
		if templateID == "" {
			return CheckTarget{}, fmt.Sprintf("%q names no build of a %s template: pass the template's template_ref", ref, b.Title)
		}
		return CheckTarget{TemplateID: templateID, Build: ref}, ""
	}
	if b.Tags == nil {
		if errs := b.ValidateTemplateID(ref); len(errs) > 0 {
			return CheckTarget{}, errs[0].Message
		}
		return CheckTarget{TemplateID: ref}, ""
	}
	templateID, build, ok := strings.Cut(ref, ":")
	if errs := b.ValidateTemplateID(templateID); len(errs) > 0 {
		return CheckTarget{}, errs[0].Message
	}
	// A tag (the plain name's included) moves from build to build: a check of it would prove
	// nothing about the build a tag later takes from the check's build_id.
	switch {
	case !ok:
		return CheckTarget{}, fmt.Sprintf("%q names the build the plain template name starts, whichever it is when the check runs, "+
			"not one build: pass the template's build_ref (%q)", ref, b.Tags.Ref(templateID, "<build_id>"))
	case b.Tags.TargetProblem(build) != "":
		return CheckTarget{}, fmt.Sprintf("%q: %s", build, b.Tags.TargetProblem(build))
	case b.Tags.Tag(build) == "": // a valid tag, so not a build id
		return CheckTarget{}, fmt.Sprintf("%q names tag %q, which moves from build to build, not one build: pass the template's build_ref (%q)",
			ref, build, b.Tags.Ref(templateID, "<build_id>"))
	}
	return CheckTarget{TemplateID: templateID, Build: build}, ""
}

// ErrNoCheckedBuild is a check target that names no ready build.
var ErrNoCheckedBuild = fmt.Errorf("names no ready build")

// ResolveCheckBuild returns the build the check of target starts: the target's own, which must
// still be served by its reference, or the one a template id starts now (the newest snapshot of
// an OpenSandbox name), or, on a backend that tells no builds apart, the template id itself.
func ResolveCheckBuild(ctx context.Context, builder Builder, target CheckTarget) (string, error) {
	serving, ok := builder.(ServingChecker)
	if !ok {
		return target.TemplateID, nil // Bedrock: the code interpreter is the build
	}
	candidate := target.Build != "" // its own reference starts it, whatever the plain name starts
	build, err := serving.Serving(ctx, target.TemplateID, candidate, target.Build)
	if err != nil {
		return "", AtStageIfBare(StageTemplateLookup, err)
	}
	if build == "" || (candidate && build != target.Build) {
		what := "template " + target.TemplateID
		if candidate {
			what = "build " + target.Build + " of template " + target.TemplateID
		}
		return "", AtStage(StageTemplateLookup, fmt.Errorf("%s %w: build the template first, or pass the reference of a build that exists", what, ErrNoCheckedBuild))
	}
	return build, nil
}
