package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// validateRegistryAuth checks the "exactly one" rules of registry_auth with messages a person
// can read, on the attribute at fault: one credential kind (basic, aws or gcp), and in it one of
// each secret and its write-only twin. The framework's ExactlyOneOf validators printed path
// expressions ("[registry_auth.basic.<.basic,...]") and pointed at the resource line.
func validateRegistryAuth(ctx context.Context, cfg types.Object, resp *resource.ValidateConfigResponse) {
	if cfg.IsNull() || cfg.IsUnknown() {
		return
	}
	var auth registryAuthModel
	if diags := cfg.As(ctx, &auth, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}); diags.HasError() {
		return // the schema's own type errors say it better
	}
	root := path.Root("registry_auth")
	var kinds []string
	for _, kind := range []struct {
		name string
		set  bool
	}{{"basic", auth.Basic != nil}, {"aws", auth.AWS != nil}, {"gcp", auth.GCP != nil}} {
		if kind.set {
			kinds = append(kinds, kind.name)
		}
	}
	if len(kinds) != 1 {
		got := "none"
		if len(kinds) > 1 {
			got = strings.Join(kinds, " and ")
		}
		resp.Diagnostics.AddAttributeError(root, "registry_auth needs exactly one credential kind",
			"Set exactly one of registry_auth.basic, registry_auth.aws or registry_auth.gcp; got "+got+".")
	}
	twins := func(kind, secret string, stored, writeOnly types.String) {
		if stored.IsUnknown() || writeOnly.IsUnknown() || stored.IsNull() != writeOnly.IsNull() {
			return
		}
		got := "neither"
		if !stored.IsNull() {
			got = "both"
		}
		// On registry_auth itself: CLIs cannot point into an object literal, and fall back to the resource line.
		resp.Diagnostics.AddAttributeError(root, "registry_auth."+kind+" needs exactly one "+secret,
			"Set exactly one of "+secret+" (stored in state, sensitive) or "+secret+"_wo (write-only, Terraform/OpenTofu >= 1.11); got "+got+".")
	}
	if b := auth.Basic; b != nil {
		twins("basic", "password", b.Password, b.PasswordWO)
	}
	if a := auth.AWS; a != nil {
		twins("aws", "secret_access_key", a.SecretAccessKey, a.SecretAccessKeyWO)
	}
	if g := auth.GCP; g != nil {
		twins("gcp", "service_account_json", g.ServiceAccountJSON, g.ServiceAccountJSONWO)
	}
}
