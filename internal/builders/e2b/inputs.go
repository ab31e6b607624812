package e2b

import (
	"context"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// inputsTagPrefix marks the tag that records a build's inputs (builders.TemplateSpec.Fingerprint).
// Each build is registered with the tags `default` and `inputs-<fingerprint>`, so the build that
// `default` resolves to says what it was made from; E2B's tag rules (^[a-z0-9-_.]+$, not a UUID:
// packages/shared/pkg/id/id.go) fit it.
const inputsTagPrefix = "inputs-"

var _ builders.InputsChecker = (*Builder)(nil)

func inputsTag(fingerprint string) string { return inputsTagPrefix + fingerprint }

// BuiltFrom tells whether the build the spec's consumers start was made from its inputs: the build
// `default` serves (asked of GET /templates, never of the tags alone: E2B assigns `default` and
// inputs-<fingerprint> when a build is requested (register_build.go) and GET /tags lists each tag's
// newest assignment whatever its build's status (list_template_tags.sql), so a failed or still
// running build of new inputs would pass for the served one), or, for a candidate, the ready build
// its inputs tag names. The served build matches when inputs-<fingerprint> names it. Tags list
// only each tag's newest assignment, so when the served build's own inputs tag has since moved to a
// newer build (one that failed or is still running), it cannot be confirmed: that counts as other
// inputs, and costs a rebuild rather than a false record. A template with no inputs tag at all was
// built by another tool or an older provider: unknown. Called only before adopting a template
// (create, a retry), never on refresh.
func (b *Builder) BuiltFrom(ctx context.Context, spec builders.TemplateSpec) (builders.InputsVerdict, string, error) {
	tags, err := b.tagsOf(ctx, spec.TemplateID)
	if err != nil {
		return builders.InputsUnknown, "", err
	}
	served, err := b.servedBy(ctx, spec.TemplateID, consumersRef(spec), tags, "")
	if err != nil || served == "" {
		return builders.InputsDiffer, "", err // nothing ready serves it (any more): nothing to adopt
	}
	verdict, want := builders.InputsUnknown, inputsTag(spec.Fingerprint())
	for _, t := range tags {
		switch {
		case !strings.HasPrefix(t.Tag, inputsTagPrefix):
		case t.Tag == want && t.BuildID == served:
			return builders.InputsMatch, served, nil
		default:
			verdict = builders.InputsDiffer // recorded inputs, but not these on the served build
		}
	}
	return verdict, served, nil
}
