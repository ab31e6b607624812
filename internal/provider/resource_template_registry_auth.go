package provider

import (
	"context"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// registryAuth maps registry_auth onto the core's credential: the resource's and the rebuild
// action's alike (the action's has no write-only twins). HCL has an optional object per kind and,
// on the resource, a secret with a write-only twin, so the two "exactly one" rules only HCL can
// break are checked here, the one place that maps it, with messages a person can read. (The
// framework's ExactlyOneOf validators printed path expressions and pointed at the resource line.)
// Write-only secrets are null in plans, so they come from config, the only place Terraform ever
// sends them.
func registryAuth(planned, config types.Object) (builders.RegistryAuth, diag.Diagnostics) {
	if planned.IsNull() || planned.IsUnknown() {
		return nil, nil
	}
	var diags diag.Diagnostics
	// On registry_auth itself: CLIs cannot point into an object literal, and fall back to the resource line.
	root := path.Root("registry_auth")
	var kinds []string
	for kind, v := range planned.Attributes() {
		if !v.IsNull() {
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
	kind := kinds[0]
	p, c := kindAttributes(planned, kind), kindAttributes(config, kind)
	secret := func(name string) builders.Secret {
		stored, writeOnly := stringAttribute(p, name), stringAttribute(c, name+"_wo")
		if stored.IsUnknown() || writeOnly.IsUnknown() {
			return builders.Secret{}
		}
		if _, hasTwin := p[name+"_wo"]; hasTwin && stored.IsNull() == writeOnly.IsNull() {
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
	switch kind {
	case string(builders.RegistryAuthBasic):
		return &builders.BasicAuth{Username: stringAttribute(p, "username").ValueString(), Password: secret("password")}, diags
	case string(builders.RegistryAuthAWS):
		return &builders.AWSAuth{AccessKeyID: stringAttribute(p, "access_key_id").ValueString(), Region: stringAttribute(p, "region").ValueString(),
			SecretAccessKey: secret("secret_access_key")}, diags
	default:
		return &builders.GCPAuth{ServiceAccountJSON: secret("service_account_json")}, diags
	}
}

// kindAttributes are the attributes of registry_auth's object of one kind (none when absent).
func kindAttributes(auth types.Object, kind string) map[string]attr.Value {
	if auth.IsNull() || auth.IsUnknown() {
		return nil
	}
	o, ok := auth.Attributes()[kind].(types.Object)
	if !ok || o.IsNull() || o.IsUnknown() {
		return nil
	}
	return o.Attributes()
}

// stringAttribute is the string attribute name of attrs, null when it has none.
func stringAttribute(attrs map[string]attr.Value, name string) types.String {
	if s, ok := attrs[name].(types.String); ok {
		return s
	}
	return types.StringNull()
}

// keyPathExists warns when a GCP key is given as a path (not JSON content) to no existing file.
// The key's content is checked by the core (ValidateConfig reports it); a path is read at apply.
// Its diagnostics never quote the value: it is a secret.
type keyPathExists struct{}

func (keyPathExists) Description(context.Context) string {
	return "a key file path should name an existing file"
}

func (v keyPathExists) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (keyPathExists) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	gcp := builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(req.ConfigValue.ValueString())}
	if gcp.IsContent() {
		return
	}
	// A warning, not an error: the same apply may write the file (local_sensitive_file) before the build.
	if _, err := os.Stat(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeWarning(req.Path, "Service account key not found",
			"The value is neither a JSON key nor the path of an existing file. If it is a path, the file must exist "+
				"when the template is built; otherwise the build fails at REGISTRY_AUTH.")
	}
}
