package builders

import (
	"context"
	"fmt"
	"slices"
)

// withTagsOnAdopted gives an adopted build (SKIPPED naming a build) the spec's tags that do not
// point at it yet: a build adopted by a create or a retried update was registered by another run,
// perhaps with other tags, and the record says each of its tags starts it. A backend without tags,
// or a spec without any, asks nothing.
func withTagsOnAdopted(ctx context.Context, b Builder, spec TemplateSpec, result TemplateBuildResult) TemplateBuildResult {
	tagger, ok := b.(Tagger)
	if !ok || result.Status != StatusSkipped || result.BuildID == "" || len(spec.Tags) == 0 {
		return result
	}
	err := func() (err error) {
		defer recoverAsError(&err)
		current, err := tagger.Tags(ctx, spec.TemplateID)
		if err != nil {
			return err
		}
		missing := slices.DeleteFunc(slices.Clone(spec.Tags), func(tag string) bool { return current[tag] == result.BuildID })
		if len(missing) == 0 {
			return nil
		}
		_, err = tagger.MoveTags(ctx, spec.TemplateID, result.BuildID, missing)
		return err
	}()
	if err != nil {
		return failed(fmt.Errorf("adopted build %s, but could not give it the tags %v: %w", result.BuildID, spec.Tags, err), StageTemplateBuild)
	}
	return result
}
