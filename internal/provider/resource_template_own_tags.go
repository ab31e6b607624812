package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// A template's builds and their tags: tags every build gets, candidates that do not go live, and
// the reference to exactly one build (build_ref), on the backends whose descriptor has tag rules.

// taggingBackends are the backends whose builds have tags.
func taggingBackends() []*builders.Backend {
	return backends.Where(func(b *builders.Backend) bool { return b.Tags != nil })
}

// onlyTagging is " (E2B only)" while some backends have no tags.
func onlyTagging() string {
	if tagging := taggingBackends(); len(tagging) < len(backends.All) {
		return " (" + titles(tagging) + " only)"
	}
	return ""
}

// liveTags names the tag each tagging backend's plain template name starts: "`default` on E2B".
func liveTags() string {
	var says []string
	for _, b := range taggingBackends() {
		says = append(says, "`"+b.Tags.Live+"` on "+b.Title)
	}
	return joinProse(says, "and")
}

// withTagAttributes adds tags, candidate and build_ref to the template resource's attributes.
func withTagAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	maps.Copy(attrs, map[string]schema.Attribute{
		builders.FieldTags: schema.SetAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Extra tags every build gets" + onlyTagging() + ", e.g. a release or a git SHA: consumers start the " +
				"build a tag points at as `<template_id>:<tag>`. Lower-case letters, digits, `.`, `-` and `_`; not a UUID, not the " +
				"tag the plain template name starts (" + liveTags() + ": see `candidate`), not one of the provider's own `inputs-*`. " +
				"Changing only `tags` builds nothing: the added tags are given to the current build; removed ones stay on the " +
				"builds that have them (`sandbox_template_tag` manages a tag that moves)."},
		builders.FieldCandidate: schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Build candidates" + onlyTagging() + ": builds get `tags` but not the tag the plain template name " +
				"starts (" + liveTags() + "), so whoever starts sandboxes from `template_ref` keeps the build it had. Consumers of " +
				"the candidate pass `build_ref`, or a tag a `sandbox_template_tag` points at it (promotion). The resource then follows " +
				"its own build, not what the plain name starts. Turning it off gives the current build the plain name's tag, " +
				"without building."},
		"build_ref": schema.SingleNestedAttribute{Computed: true,
			MarkdownDescription: "The immutable reference to exactly `build_id`" + onlyTagging() + ": `value` is `<template_id>:<build_id>`, " +
				"which starts that build as long as it exists, whatever tags move. A `sandbox_template_tag` promotes it with " +
				"`target = build_id`. Null on backends without build tags.",
			Attributes: map[string]schema.Attribute{
				"provider": schema.StringAttribute{Computed: true, MarkdownDescription: "Backend the value belongs to."},
				"value":    schema.StringAttribute{Computed: true, MarkdownDescription: "`<template_id>:<build_id>`."},
			}},
	})
	return attrs
}

// tagSpec reads tags and candidate into spec; unknown tags are left out (checked again at apply).
func (m templateModel) tagSpec(ctx context.Context, spec *builders.TemplateSpec) diag.Diagnostics {
	spec.Candidate = m.Candidate.ValueBool()
	if m.Tags.IsNull() || m.Tags.IsUnknown() {
		return nil
	}
	diags := m.Tags.ElementsAs(ctx, &spec.Tags, false)
	slices.Sort(spec.Tags) // a set: its order means nothing
	return diags
}

// buildRefValue is the reference to exactly buildID of the template, null where the backend has no
// tags or no build is recorded.
func buildRefValue(backend, templateID types.String, buildID string) types.Object {
	descriptor, err := backends.Named(backend.ValueString())
	if err != nil || descriptor.Tags == nil || buildID == "" {
		return types.ObjectNull(templateRefAttrTypes)
	}
	return templateRefValue(&builders.TemplateRef{Provider: descriptor.Name, Value: descriptor.Tags.Ref(templateID.ValueString(), buildID)})
}

// retag gives the build an update keeps what a change of tags or candidate asks of it, without
// building: the tags added since the last apply and, when candidate was turned off, the plain
// name's tag (the build goes live). Removed tags stay on the builds that had them. It reports
// whether the tags are as planned; when they are not, the error says why.
func (r *templateResource) retag(ctx context.Context, plan, state templateModel, diags *diag.Diagnostics) bool {
	descriptor, err := backends.Named(plan.Backend.ValueString())
	if err != nil || descriptor.Tags == nil || state.BuildID.ValueString() == "" {
		return true
	}
	var planned, recorded builders.TemplateSpec
	diags.Append(plan.tagSpec(ctx, &planned)...)
	diags.Append(state.tagSpec(ctx, &recorded)...)
	added := slices.DeleteFunc(planned.Tags, func(tag string) bool { return slices.Contains(recorded.Tags, tag) })
	if recorded.Candidate && !planned.Candidate {
		added = append(added, descriptor.Tags.Live)
	}
	if len(added) == 0 || diags.HasError() {
		return !diags.HasError()
	}
	tagger, err := r.backends.tagger(ctx, plan.Backend.ValueString())
	if err != nil {
		diags.Append(notConfigured(err))
		return false
	}
	if _, err := tagger.MoveTags(ctx, plan.TemplateID.ValueString(), state.BuildID.ValueString(), added); err != nil {
		diags.AddAttributeError(path.Root(builders.FieldTags), "Could not tag the current build",
			fmt.Sprintf("Tagging build %s of template %q with %v: %s", state.BuildID.ValueString(), plan.TemplateID.ValueString(), added, err))
		return false
	}
	return true
}

// forgetMovedTags takes the tags that no longer start the recorded build (moved: the build each
// starts now, "" when removed) out of the record, so that the next plan assigns them to it again
// (retag: no build), and warns of each, naming where it went: another configuration managing the
// same tag moves it back on each of its applies, and each of this one's warns again.
func forgetMovedTags(ctx context.Context, state *templateModel, moved map[string]string) diag.Diagnostics {
	if len(moved) == 0 {
		return nil
	}
	var recorded []string
	diags := state.Tags.ElementsAs(ctx, &recorded, false)
	kept := slices.DeleteFunc(recorded, func(tag string) bool { _, gone := moved[tag]; return gone })
	tags, setDiags := types.SetValueFrom(ctx, types.StringType, kept)
	diags.Append(setDiags...)
	state.Tags = tags
	for _, tag := range slices.Sorted(maps.Keys(moved)) {
		now := "no longer exists"
		if moved[tag] != "" {
			now = "starts build " + moved[tag]
		}
		diags.AddAttributeWarning(path.Root(builders.FieldTags), "Tag moved outside this configuration",
			fmt.Sprintf("Tag %q of template %q %s, not build %s that this resource records: another configuration (a "+
				"sandbox_template_tag of the same name, or a sandbox_template with this tag in another directory) or a hand "+
				"edit moved it. The next apply points it back at build %s, without building. When another configuration "+
				"manages this tag too, each apply of either moves it back: let only one of them manage it.",
				tag, state.TemplateID.ValueString(), now, state.BuildID.ValueString(), state.BuildID.ValueString()))
	}
	return diags
}

// tagger opens the named backend's builder as a Tagger (a backend with tag rules has one).
func (b *backendSet) tagger(ctx context.Context, name string) (builders.Tagger, error) {
	builder, err := b.Builder(ctx, name)
	if err != nil {
		return nil, err
	}
	tagger, ok := builder.(builders.Tagger)
	if !ok {
		return nil, fmt.Errorf("the %s backend has no build tags", name)
	}
	return tagger, nil
}
