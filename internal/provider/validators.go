package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

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
