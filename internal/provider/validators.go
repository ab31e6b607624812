package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// imageReferenceValidator rejects image references Docker itself would reject, at plan time.
type imageReferenceValidator struct{}

func (imageReferenceValidator) Description(context.Context) string {
	return "must be a valid container image reference"
}
func (v imageReferenceValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (imageReferenceValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := builders.ValidateImageReference(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid image reference", err.Error())
	}
}

// serviceAccountJSONValidator checks a key given as content; a path is read at apply time.
// Its diagnostics never quote the value: it is a secret.
type serviceAccountJSONValidator struct{}

func (serviceAccountJSONValidator) Description(context.Context) string {
	return "must be a Google service-account key (JSON content) or a path to one"
}
func (v serviceAccountJSONValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (serviceAccountJSONValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	gcp := builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(req.ConfigValue.ValueString())}
	if !gcp.IsContent() {
		// A warning, not an error: the same apply may write the file (local_sensitive_file) before the build.
		if _, err := os.Stat(req.ConfigValue.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeWarning(req.Path, "Service account key not found",
				"The value is neither a JSON key nor the path of an existing file. If it is a path, the file must exist "+
					"when the template is built; otherwise the build fails at REGISTRY_AUTH.")
		}
		return
	}
	if err := builders.ValidateServiceAccountJSON(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid service account key", err.Error())
	}
}

// int64Rule applies one of the core's rules (e.g. builders.CPUCountProblem) at plan time, so the
// rule is written once and the schema cannot drift from it.
type int64Rule struct {
	description string
	problem     func(int64) string
}

func (v int64Rule) Description(context.Context) string             { return v.description }
func (v int64Rule) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v int64Rule) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.problem(req.ConfigValue.ValueInt64()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), req.Path.String()+" "+problem+".")
	}
}

// stringRule applies one of the core's string rules (e.g. builders.PackageProblem) at plan time.
type stringRule struct {
	description string
	problem     func(string) string
}

func (v stringRule) Description(context.Context) string             { return v.description }
func (v stringRule) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v stringRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.problem(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), req.Path.String()+": "+problem+".")
	}
}
