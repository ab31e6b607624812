package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// registryAuth maps registry_auth onto the core's credential. HCL has an optional object per
// kind and a secret with a write-only twin, so the two "exactly one" rules only HCL can break are
// checked here, the one place that maps it, with messages a person can read. (The framework's
// ExactlyOneOf validators printed path expressions and pointed at the resource line.) Write-only
// secrets are null in plans, so they come from config, the only place Terraform ever sends them.
func registryAuth(ctx context.Context, planned, config types.Object) (builders.RegistryAuth, diag.Diagnostics) {
	if planned.IsNull() || planned.IsUnknown() {
		return nil, nil
	}
	var p, c registryAuthModel
	diags := planned.As(ctx, &p, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})
	if !config.IsNull() && !config.IsUnknown() {
		diags.Append(config.As(ctx, &c, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	}
	if diags.HasError() {
		return nil, diags
	}
	// On registry_auth itself: CLIs cannot point into an object literal, and fall back to the resource line.
	root := path.Root("registry_auth")
	var kinds []string
	for kind, set := range map[string]bool{"basic": p.Basic != nil, "aws": p.AWS != nil, "gcp": p.GCP != nil} {
		if set {
			kinds = append(kinds, kind)
		}
	}
	if len(kinds) != 1 {
		got := "none"
		if len(kinds) > 1 {
			slices.Sort(kinds)
			got = strings.Join(kinds, " and ")
		}
		diags.AddAttributeError(root, "registry_auth needs exactly one credential kind",
			"Set exactly one of registry_auth.basic, registry_auth.aws or registry_auth.gcp; got "+got+".")
		return nil, diags
	}
	secret := func(kind, name string, stored, writeOnly types.String) builders.Secret {
		if stored.IsUnknown() || writeOnly.IsUnknown() {
			return builders.Secret{}
		}
		if stored.IsNull() == writeOnly.IsNull() {
			got := "neither"
			if !stored.IsNull() {
				got = "both"
			}
			diags.AddAttributeError(root, "registry_auth."+kind+" needs exactly one "+name,
				"Set exactly one of "+name+" (stored in state, sensitive) or "+name+"_wo (write-only, Terraform/OpenTofu >= 1.11); got "+got+".")
		}
		if !stored.IsNull() {
			return builders.NewSecret(stored.ValueString())
		}
		return builders.NewSecret(writeOnly.ValueString())
	}
	switch {
	case p.Basic != nil:
		return &builders.BasicAuth{Username: p.Basic.Username.ValueString(),
			Password: secret("basic", "password", p.Basic.Password, writeOnlyOf(c.Basic, func(b *basicAuthModel) types.String { return b.PasswordWO }))}, diags
	case p.AWS != nil:
		return &builders.AWSAuth{AccessKeyID: p.AWS.AccessKeyID.ValueString(), Region: p.AWS.Region.ValueString(),
			SecretAccessKey: secret("aws", "secret_access_key", p.AWS.SecretAccessKey, writeOnlyOf(c.AWS, func(a *awsAuthModel) types.String { return a.SecretAccessKeyWO }))}, diags
	default:
		return &builders.GCPAuth{ServiceAccountJSON: secret("gcp", "service_account_json", p.GCP.ServiceAccountJSON,
			writeOnlyOf(c.GCP, func(g *gcpAuthModel) types.String { return g.ServiceAccountJSONWO }))}, diags
	}
}

// writeOnlyOf is the write-only twin of a secret in config (null without config).
func writeOnlyOf[T any](config *T, writeOnly func(*T) types.String) types.String {
	if config == nil {
		return types.StringNull()
	}
	return writeOnly(config)
}
