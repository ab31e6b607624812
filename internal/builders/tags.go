package builders

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Spec fields about tags: names a consumer starts one of a template's builds by.
const (
	FieldTags      = "tags"
	FieldCandidate = "candidate"
)

// TagRules describe a backend's build tags: names a consumer starts one of a template's builds by
// ("name:tag" on E2B), moved from build to build without building. A backend without them
// (Backend.Tags nil) refuses tags, candidates and tag resources at plan time.
type TagRules struct {
	// Live is the tag the plain template name resolves to (E2B's "default"). Every build gets it
	// unless the spec is a candidate.
	Live string
	// Reserved prefixes the tags the provider gives builds itself (E2B: inputs-<fingerprint>).
	Reserved string
	// Tag returns what is wrong with a tag name, "" when it is valid.
	Tag func(tag string) string
	// Target returns what is wrong with what a tag may point at (a tag or a build id), "" when valid.
	Target func(target string) string
	// Ref is the reference a consumer starts exactly a template's tag or build by ("name:tag").
	Ref func(templateID, tagOrBuild string) string
}

// MaxTagLength bounds tags and targets: a tag is part of the reference "name:tag" consumers start,
// and E2B's template names are at most 128 characters (TemplateBuildRequestV3.name, which may
// carry the tag).
const MaxTagLength = 128

// ErrNoReadyTarget is a tag target that names a build no tag can point at: it failed, is still
// building, is another team's, or does not exist. Resolve returns it when it can tell.
var ErrNoReadyTarget = errors.New("no tag can point at it")

// nameProblem is what every backend refuses in a tag or a target, which end up in request paths,
// import IDs, identities and generated configuration: more than MaxTagLength characters, and the
// names of this and the parent folder.
func nameProblem(name string) string {
	switch {
	case len(name) > MaxTagLength:
		return fmt.Sprintf("is %d characters long: at most %d", len(name), MaxTagLength)
	case name == "." || name == "..":
		return "names this or the parent folder wherever it is a path segment (a URL, an import ID)"
	}
	return ""
}

// TagProblem returns what is wrong with a tag a user manages, "" when it is valid: the backend's
// rule, and none of the tags the provider gives builds itself.
func (r *TagRules) TagProblem(tag string) string {
	if problem := nameProblem(tag); problem != "" {
		return problem
	}
	if problem := r.Tag(tag); problem != "" {
		return problem
	}
	if strings.HasPrefix(tag, r.Reserved) {
		return "is reserved: the provider records each build's inputs under " + r.Reserved + "<fingerprint>"
	}
	return ""
}

// TargetProblem returns what is wrong with what a tag may point at (a tag or a build id), "" when
// it is valid.
func (r *TagRules) TargetProblem(target string) string {
	if problem := nameProblem(target); problem != "" {
		return problem
	}
	return r.Target(target)
}

// NoTags is the problem of a tag setting on a backend that has no tags.
func NoTags(b *Backend) string {
	return "the " + b.Title + " backend has no build tags: its templates have one version, which a build replaces"
}

// validateTags checks the spec's tags and candidate against the backend's tag rules.
func (s TemplateSpec) validateTags(b *Backend) FieldErrors {
	var errs FieldErrors
	if b.Tags == nil {
		if len(s.Tags) > 0 {
			errs = append(errs, FieldError{Field: FieldTags, Message: NoTags(b)})
		}
		if s.Candidate {
			errs = append(errs, FieldError{Field: FieldCandidate, Message: NoTags(b) + ", so a build cannot be a candidate"})
		}
		return errs
	}
	for _, tag := range s.Tags {
		problem := b.Tags.TagProblem(tag)
		if tag == b.Tags.Live {
			problem = "is the tag of the build the plain template name starts: every build gets it unless candidate = true, " +
				"and a candidate goes live when a sandbox_template_tag moves it"
		}
		if problem != "" {
			errs = append(errs, FieldError{Field: FieldTags, Message: fmt.Sprintf("%q %s", tag, problem)})
		}
	}
	return errs
}

// Tagger is a Builder whose templates have tags (Backend.Tags): a tag points at one build, and
// moves to another without building.
type Tagger interface {
	// Tags returns where each of the template's tags points (its newest assignment), nil when the
	// template is gone.
	Tags(ctx context.Context, templateID string) (map[string]string, error)
	// Resolve returns the build target (a tag or a build id) starts sandboxes from, "" when none or
	// when the backend cannot name it before a move.
	Resolve(ctx context.Context, templateID, target string) (string, error)
	// MoveTags points tags at the ready build target names and returns that build.
	MoveTags(ctx context.Context, templateID, target string, tags []string) (string, error)
	// RemoveTags removes tags from every build of the template; tags or a template already gone are
	// not an error.
	RemoveTags(ctx context.Context, templateID string, tags []string) error
}
