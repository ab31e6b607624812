package e2b

import (
	"context"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// inputsTagPrefix marks the tag that records a build's inputs (builders.TemplateSpec.Fingerprint).
// Each build is registered with the tags `default` and `inputs-<fingerprint>`, so the build that
// `default` resolves to says what it was made from; E2B's tag rules (^[a-z0-9-_.]+$, not a UUID:
// packages/shared/pkg/id/id.go) fit it.
const inputsTagPrefix = "inputs-"

var _ builders.InputsChecker = (*Builder)(nil)

func inputsTag(fingerprint string) string { return inputsTagPrefix + fingerprint }

// BuiltFrom reads the template's tags: the build the newest `default` assignment points at must
// carry inputs-<fingerprint>. A build with no inputs tag was made by another tool or an older
// provider: unknown. Called only before adopting a template (create, a retry), never on refresh.
func (b *Builder) BuiltFrom(ctx context.Context, templateID, fingerprint string) (builders.InputsVerdict, error) {
	tags, err := b.api.templateTags(ctx, templateID)
	if err != nil {
		return builders.InputsUnknown, apihttp.AtStage(builders.StageTemplateLookup, fmt.Errorf("listing tags of template %s: %w", templateID, err))
	}
	current := ""
	for _, t := range tags {
		if t.Tag == usableTag {
			current = t.BuildID
		}
	}
	verdict := builders.InputsUnknown
	for _, t := range tags {
		if t.BuildID != current || current == "" || !strings.HasPrefix(t.Tag, inputsTagPrefix) {
			continue
		}
		if t.Tag == inputsTag(fingerprint) {
			return builders.InputsMatch, nil
		}
		verdict = builders.InputsDiffer
	}
	return verdict, nil
}
