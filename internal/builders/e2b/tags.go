package e2b

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// E2B's rules for tags (packages/shared/pkg/id/id.go): lower-case letters, digits, '.', '-' and
// '_', and not a UUID, because wherever E2B resolves a tag a build id names exactly that build
// (get_template_with_build_by_tag.sql, try_cast_uuid): "name:<build id>" is the immutable
// reference to one build. E2B lower-cases what it is sent; the provider asks for lower case, so that
// what it records is what E2B lists.
var (
	tagPattern     = regexp.MustCompile(`^[a-z0-9._-]+$`)
	buildIDPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

var tagRules = builders.TagRules{Live: usableTag, Reserved: inputsTagPrefix, Tag: tagProblem, Target: targetProblem, Ref: reference}

var _ builders.Tagger = (*Builder)(nil)

func tagProblem(tag string) string {
	switch {
	case !tagPattern.MatchString(tag):
		return "is not a valid E2B tag: use lower-case letters, digits, '.', '-' and '_'"
	case buildIDPattern.MatchString(tag):
		return "is not a valid E2B tag: a tag cannot be a UUID, which E2B reads as a build id"
	}
	return ""
}

func targetProblem(target string) string {
	if !tagPattern.MatchString(target) {
		return "is neither a tag nor a build id: use a tag of the template (lower-case letters, digits, '.', '-' and '_') or a build_id"
	}
	return ""
}

// reference is "name:tag" (or "name:<build id>"), what E2B's SDKs take as the template to start.
func reference(templateID, tagOrBuild string) string { return templateID + ":" + tagOrBuild }

func isBuildID(ref string) bool { return buildIDPattern.MatchString(ref) }

// buildTags are the tags a build is registered with: its inputs tag, the spec's own tags and,
// unless it is a candidate, `default`. E2B adds `default` only to a registration that sends no
// tags (register_build.go); the inputs tag is always sent, so a candidate never gets it.
func buildTags(spec builders.TemplateSpec) []string {
	tags := []string{inputsTag(spec.Fingerprint())}
	if !spec.Candidate {
		tags = append(tags, usableTag)
	}
	return append(tags, spec.Tags...)
}

// consumersRef is the tag the consumers of spec's builds start them by: the plain name's `default`,
// or, for a candidate (which only its own reference starts), its inputs: a ready build of these
// inputs is one it may adopt.
func consumersRef(spec builders.TemplateSpec) string {
	if spec.Candidate {
		return inputsTag(spec.Fingerprint())
	}
	return usableTag
}

// served returns the build alias:ref starts sandboxes from, "" when none (see servedBy).
func (b *Builder) served(ctx context.Context, alias, ref, recorded string) (string, error) {
	var tags []templateTag
	if !isBuildID(ref) {
		var err error
		if tags, err = b.tagsOf(ctx, alias); err != nil {
			return "", err
		}
	}
	return b.servedBy(ctx, alias, ref, tags, recorded)
}

// servedBy returns the build alias:ref starts sandboxes from: the newest assignment of tag ref whose
// build is ready, or the build ref names by id (get_template_with_build_by_tag.sql); "" when there
// is none, or when E2B's API cannot name it. tags are the template's, as GET /tags lists them (each
// one's newest assignment, whatever its build's status); recorded is a build known to have been
// ready and served by ref ("" for none): while it is still ref's newest assignment it is the one
// (a build never leaves ready), and no more request is needed. Otherwise GET /templates names the
// build `default` serves (get_team_templates.sql); another tag serves its newest assignment when
// that build is ready, else an older one no listing names.
func (b *Builder) servedBy(ctx context.Context, alias, ref string, tags []templateTag, recorded string) (string, error) {
	if isBuildID(ref) {
		return b.readyBuild(ctx, alias, ref)
	}
	newest := newestOf(tags, ref)
	switch {
	case newest == "":
		return "", nil
	case newest == recorded:
		return recorded, nil
	case ref == usableTag:
		remote, _, err := b.findTemplate(ctx, alias)
		return remote.servedBuild(), err
	}
	return b.readyBuild(ctx, alias, newest)
}

// readyBuild returns buildID when it is a ready build of the team's template alias, "" otherwise:
// GET /templates/aliases/{alias}:{build id} answers 404 unless it is (handlers/template_alias.go).
func (b *Builder) readyBuild(ctx context.Context, alias, buildID string) (string, error) {
	if ok, err := b.resolves(ctx, alias, buildID); !ok {
		return "", err
	}
	return buildID, nil
}

// resolves tells whether alias:ref starts sandboxes: the team's template, with a ready build carrying
// tag ref or named ref. One request; another team's template (403) does not.
func (b *Builder) resolves(ctx context.Context, alias, ref string) (bool, error) {
	_, err := b.api.templateByAlias(ctx, reference(alias, ref))
	switch {
	case err == nil:
		return true, nil
	case apihttp.IsNotFound(err), apihttp.StatusOf(err) == http.StatusForbidden:
		return false, nil
	}
	return false, builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("looking up template %s: %w", reference(alias, ref), err))
}

// tagsOf lists the newest assignment of each of the team's template's tags; none when the template
// is gone or another team's (GET /templates/{alias}/tags answers 404, 403).
func (b *Builder) tagsOf(ctx context.Context, alias string) ([]templateTag, error) {
	tags, err := b.api.templateTags(ctx, alias)
	switch {
	case apihttp.IsNotFound(err), apihttp.StatusOf(err) == http.StatusForbidden:
		return nil, nil
	case err != nil:
		return nil, builders.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing tags of template %s: %w", alias, err))
	}
	return tags, nil
}

// movedTags returns, of tags, each that no longer starts build (a ready build), with the build it
// starts now: its newest assignment (listed), when that is another ready build (moved: E2B's API
// moves a tag only to a ready build), or "" when the tag has none (removed). A tag whose newest
// assignment is a build not ready (E2B tags a build when it is requested: one being built, or one
// that failed) starts an older assignment that no answer names, and is not reported. One request
// per other build a tag was moved to, none while every tag starts build.
func (b *Builder) movedTags(ctx context.Context, alias string, tags []string, listed []templateTag, build string) (map[string]string, error) {
	moved := map[string]string{}
	ready := map[string]bool{build: true}
	for _, tag := range tags {
		newest := newestOf(listed, tag)
		if newest == build {
			continue
		}
		if _, known := ready[newest]; newest != "" && !known {
			served, err := b.readyBuild(ctx, alias, newest)
			if err != nil {
				return nil, err
			}
			ready[newest] = served != ""
		}
		if newest == "" || ready[newest] {
			moved[tag] = newest
		}
	}
	return moved, nil
}

func newestOf(tags []templateTag, tag string) string {
	if i := slices.IndexFunc(tags, func(t templateTag) bool { return t.Tag == tag }); i >= 0 {
		return tags[i].BuildID
	}
	return ""
}

// Tags returns where each of the template's tags points (its newest assignment), nil when the
// template is gone.
func (b *Builder) Tags(ctx context.Context, templateID string) (map[string]string, error) {
	tags, err := b.tagsOf(ctx, templateID)
	if err != nil || tags == nil {
		return nil, err
	}
	pointers := make(map[string]string, len(tags))
	for _, t := range tags {
		pointers[t.Tag] = t.BuildID
	}
	return pointers, nil
}

// Resolve returns the build target (a tag or a build id) starts sandboxes from, "" when none or
// when E2B's API cannot name it (see servedBy). A build id that names no ready build of the team's
// template is builders.ErrNoReadyTarget: E2B points tags only at one, and no later build makes it
// one. A tag that serves nothing yet is not: a build of this apply may give it one.
func (b *Builder) Resolve(ctx context.Context, templateID, target string) (string, error) {
	served, err := b.served(ctx, templateID, target, "")
	if err == nil && served == "" && isBuildID(target) {
		return "", fmt.Errorf("build %s of template %s failed, is still building, is another team's or does not exist: %w "+
			"(E2B points tags only at a ready build of the team's template)", target, templateID, builders.ErrNoReadyTarget)
	}
	return served, err
}

// MoveTags is POST /templates/tags: each tag gets a new assignment to the ready build
// templateID:target names (handlers/template_tags.go answers 404 unless there is one).
func (b *Builder) MoveTags(ctx context.Context, templateID, target string, tags []string) (string, error) {
	moved, err := b.api.assignTags(ctx, reference(templateID, target), tags)
	if err != nil {
		return "", fmt.Errorf("pointing %v of template %s at %s: %w", tags, templateID, target, err)
	}
	return moved.BuildID, nil
}

// RemoveTags is DELETE /templates/tags: every assignment of the tags goes; the builds stay. A
// template already gone is fine; E2B refuses to remove `default` (400).
func (b *Builder) RemoveTags(ctx context.Context, templateID string, tags []string) error {
	err := b.api.deleteTags(ctx, templateID, tags)
	if err == nil || apihttp.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("removing %v from template %s: %w", tags, templateID, err)
}
