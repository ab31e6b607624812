package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
)

// ValidateConfig checks the rules that span attributes or depend on the backend, at plan time and
// on the attribute at fault; attribute-local rules live in the schema's validators.
func (r *templateResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg templateModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Backend.IsUnknown() || cfg.Backend.IsNull() {
		return
	}
	backend, err := builders.ParseSandboxProvider(cfg.Backend.ValueString())
	if err != nil {
		return // the backend attribute's OneOf validator reports it
	}
	if !cfg.TemplateID.IsUnknown() {
		if err := builders.ValidateTemplateID(backend, cfg.TemplateID.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("template_id"), "Invalid template_id", err.Error())
		}
	}
	sources := 0
	for _, v := range []bool{!cfg.Image.IsNull(), !cfg.BaseTemplate.IsNull(), !cfg.Dockerfile.IsNull()} {
		if v {
			sources++
		}
	}
	switch {
	case backend == builders.ProviderBedrock:
	case sources == 0:
		resp.Diagnostics.AddAttributeError(path.Root("image"), "Missing image",
			"Set image (or the deprecated base_template / dockerfile): the "+string(backend)+" backend builds templates from it.")
	case backend == builders.ProviderOpenSandbox && cfg.Image.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("image"), "Missing image",
			"OpenSandbox snapshots a sandbox started from an image; base_template and dockerfile are not supported there.")
	}
	if !cfg.RegistryAuth.IsNull() && cfg.Image.IsNull() && !cfg.Image.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("registry_auth"), "registry_auth without image",
			"registry_auth only applies to a private image: set image or remove registry_auth.")
	}
	if !cfg.BaseTemplate.IsNull() && !cfg.StartCmd.IsUnknown() && !cfg.ReadyCmd.IsUnknown() && cfg.StartCmd.IsNull() != cfg.ReadyCmd.IsNull() {
		at := path.Root("start_cmd")
		if cfg.StartCmd.IsNull() {
			at = path.Root("ready_cmd")
		}
		resp.Diagnostics.AddAttributeError(at, "start_cmd and ready_cmd go together on a base_template", builders.StartReadyWithBaseTemplate+".")
	}
	if backend == builders.ProviderE2B && !cfg.Dockerfile.IsNull() && !cfg.Dockerfile.IsUnknown() {
		if err := e2b.ValidateDockerfile(cfg.Dockerfile.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("dockerfile"), "Unsupported dockerfile", err.Error())
		}
	}
	validateTimeouts(cfg, resp)
	validateRegistryAuth(ctx, cfg.RegistryAuth, resp)
	for _, field := range builders.SpecFields {
		if reason := builders.IgnoredFieldReason(backend, field); reason != "" && isSet(ctx, req, field) {
			resp.Diagnostics.AddAttributeWarning(path.Root(field), "Ignored by the "+string(backend)+" backend", field+" is ignored: "+reason+".")
		}
	}
}

// isSet tells whether the user wrote field in the configuration (defaults do not count).
func isSet(ctx context.Context, req resource.ValidateConfigRequest, field string) bool {
	var value attr.Value
	diags := req.Config.GetAttribute(ctx, path.Root(field), &value)
	return !diags.HasError() && value != nil && !value.IsNull()
}

// validateTimeouts rejects what the timeouts block would only refuse at apply, or never: a
// negative or zero duration ("-5m" expires every build at once) and text that is not a duration,
// each on its own attribute (timeouts.create, ...).
func validateTimeouts(cfg templateModel, resp *resource.ValidateConfigResponse) {
	if cfg.Timeouts.IsNull() || cfg.Timeouts.IsUnknown() {
		return
	}
	for name, value := range cfg.Timeouts.Attributes() {
		text, ok := value.(types.String)
		if !ok || text.IsNull() || text.IsUnknown() {
			continue
		}
		d, err := time.ParseDuration(text.ValueString())
		switch {
		case err != nil:
			resp.Diagnostics.AddAttributeError(path.Root("timeouts").AtName(name), "Invalid timeouts."+name,
				fmt.Sprintf("timeouts.%s must be a duration such as \"30m\" or \"1h30m\", got %q.", name, text.ValueString()))
		case d <= 0:
			resp.Diagnostics.AddAttributeError(path.Root("timeouts").AtName(name), "Invalid timeouts."+name,
				fmt.Sprintf("timeouts.%s must be positive, got %q.", name, text.ValueString()))
		}
	}
}
