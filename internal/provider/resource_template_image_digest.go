package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest"
)

// planImageDigest resolves the digest the plan records, before anything else is planned, and
// says so when the tag moved since the build in state (the rebuild decision counts it:
// buildInputsChanged). resolved is false when the plan keeps the digest it has.
func (r *templateResource) planImageDigest(ctx context.Context, req resource.ModifyPlanRequest, plan templateModel,
	resp *resource.ModifyPlanResponse) (digest types.String, resolved bool) {
	if r.backends == nil || plan.ImageDigestCheck.ValueString() == digestCheckOff ||
		plan.ImageDigestCheck.IsUnknown() || plan.Image.IsUnknown() {
		return types.String{}, false // off (the default: nothing decoded), or unknown until apply
	}
	var config templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Config.Raw, &config)...)
	var prior types.String
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("image_digest"), &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return types.String{}, false
	}
	digest, known := r.resolvePlannedDigest(ctx, plan, config, prior, resp)
	if known && digestMoved(digest, prior) {
		resp.Diagnostics.AddAttributeWarning(path.Root("image"), "Image tag moved: rebuilding",
			fmt.Sprintf("%s resolved to %s when the template was built and resolves to %s now; the template will be rebuilt from the new digest.",
				plan.Image.ValueString(), prior.ValueString(), digest.ValueString()))
	}
	return digest, known
}

// resolvePlannedDigest is the digest a plan records; known is false when it must stay unknown.
func (r *templateResource) resolvePlannedDigest(ctx context.Context, plan, config templateModel, prior types.String,
	resp *resource.ModifyPlanResponse) (digest types.String, known bool) {
	mode := plan.ImageDigestCheck.ValueString()
	if backend, err := backends.Named(plan.Backend.ValueString()); err != nil || plan.Image.IsNull() || !backend.Uses("image") {
		return types.StringNull(), true
	}
	image := plan.Image.ValueString()
	if imagedigest.Pinned(image) {
		d, err := imagedigest.Resolver{}.Resolve(ctx, image, nil) // no request: the digest is in the reference
		return types.StringValue(d), err == nil
	}
	if !fullyKnown(ctx, config.RegistryAuth) {
		return types.StringUnknown(), true // credentials known only at apply
	}
	spec, diags := plan.spec(ctx, config)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return types.StringNull(), false
	}
	ctx, cancel := context.WithTimeout(ctx, r.backends.requestTimeout) // login, challenge, token and HEAD together
	defer cancel()
	resolver := imagedigest.Resolver{Login: r.backends.registryLogin(), Transport: r.backends.registryTransport}
	d, err := resolver.Resolve(ctx, image, spec.RegistryAuth)
	if err == nil {
		return types.StringValue(d), true
	}
	const summary = "Could not resolve the image's digest"
	detail := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		detail += fmt.Sprintf(" (request_timeout = %q bounds the whole check)", r.backends.requestTimeout)
	}
	detail += "\n\nWhether the tag moved is unknown, so no rebuild is planned for it. Set image_digest_check = \"off\" where the plan cannot reach the registry."
	if mode == digestCheckStrict {
		resp.Diagnostics.AddAttributeError(path.Root("image"), summary, detail+" (image_digest_check = \"strict\")")
		return types.StringNull(), false
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("image"), summary, detail)
	return prior, true // unchanged (null on create): an unreachable registry is not a moved tag
}

// digestMoved tells whether a tag now resolves elsewhere than when the template was built. A
// digest recorded for the first time (null before) is not a move: it is only adopted.
func digestMoved(planned, prior types.String) bool {
	known := func(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
	return known(planned) && known(prior) && planned.ValueString() != prior.ValueString()
}

// settledDigest is what a build records: a digest still unknown at apply (credentials or provider
// settings known only then) is not recorded, and the next plan adopts the tag's digest.
func settledDigest(digest types.String) types.String {
	if digest.IsUnknown() {
		return types.StringNull()
	}
	return digest
}

// buildImage is the image a build pulls: pinned to the planned digest, so what was planned is
// what is built.
func buildImage(image string, digest types.String) string {
	if image == "" || digest.IsNull() || digest.IsUnknown() || imagedigest.Pinned(image) {
		return image
	}
	return imagedigest.WithDigest(image, digest.ValueString())
}

func fullyKnown(ctx context.Context, v attr.Value) bool {
	tv, err := v.ToTerraformValue(ctx)
	return err == nil && tv.IsFullyKnown()
}
