package provider

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// ValidateConfig reports, at plan time and on the attribute at fault, every problem the core
// finds in the configured spec (the rules live there, once), what only HCL can get wrong
// (registry_auth's "exactly one" rules, timeouts), and the fields the backend ignores.
func (r *templateResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg templateModel
	resp.Diagnostics.Append(readModel(ctx, req.Config.Raw, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.Backend.IsUnknown() || cfg.Backend.IsNull() {
		return
	}
	backend, err := backends.Named(cfg.Backend.ValueString())
	if err != nil {
		return // the backend attribute's OneOf validator reports it
	}
	validateTimeouts(cfg, resp)
	spec, unknown, diags := cfg.configuredSpec(ctx)
	resp.Diagnostics.Append(diags...)
	for _, problem := range spec.Validate(backend) {
		if unknown[problem.Field] || unknown[problem.Root()] || slices.ContainsFunc(problem.Reads, func(field string) bool { return unknown[field] }) {
			continue // a value known only at apply: the rule is checked again then
		}
		resp.Diagnostics.AddAttributeError(attributePath(problem), "Invalid "+problem.Field, problem.Error()+".")
	}
	for _, field := range builders.SpecFields {
		if reason := backend.Ignored[field]; reason != "" && isSet(cfg.attribute(field)) {
			resp.Diagnostics.AddAttributeWarning(path.Root(field), "Ignored by the "+string(backend.Name)+" backend", field+" is ignored: "+reason+".")
		}
	}
}

// configuredSpec is the spec a configuration describes, and the fields whose values are not known
// yet (they read as empty in the spec): top-level ones, and elements of packages.
func (m templateModel) configuredSpec(ctx context.Context) (builders.TemplateSpec, map[string]bool, diag.Diagnostics) {
	unknown := map[string]bool{}
	for name, v := range map[string]attr.Value{"template_id": m.TemplateID, "image": m.Image, "start_cmd": m.StartCmd,
		"ready_cmd": m.ReadyCmd, "cpu_count": m.CPUCount, "memory_mb": m.MemoryMB, "base_template": m.BaseTemplate,
		"dockerfile": m.Dockerfile, "packages": m.Packages, "registry_auth": m.RegistryAuth, "rebuild_triggers": m.RebuildTriggers} {
		unknown[name] = !fullyKnown(ctx, v)
	}
	switch {
	case m.Packages.IsUnknown():
		m.Packages = types.ListNull(types.StringType)
	case unknown["packages"]: // known list, some elements known only at apply: check the others
		unknown["packages"] = false
		elements := m.Packages.Elements()
		for i, e := range elements {
			if e.IsUnknown() {
				unknown[fmt.Sprintf("packages[%d]", i)] = true
				elements[i] = types.StringValue("")
			}
		}
		m.Packages = types.ListValueMust(types.StringType, elements)
	}
	if unknown["rebuild_triggers"] {
		m.RebuildTriggers = types.MapNull(types.StringType)
	}
	spec, diags := m.spec(ctx, m)
	if unknown["registry_auth"] {
		spec.RegistryAuth = nil
	}
	return spec, unknown, diags
}

// attributePath is where a problem points in the schema: its top-level attribute, or a list
// element, but nothing inside registry_auth, since CLIs cannot point into an object literal and
// would fall back to the resource line.
func attributePath(problem builders.FieldError) path.Path {
	at := path.Root(problem.Root())
	_, index, isElement := strings.Cut(strings.TrimSuffix(problem.Field, "]"), "[")
	if i, err := strconv.Atoi(index); isElement && err == nil {
		return at.AtListIndex(i)
	}
	return at
}

// isSet tells whether the user wrote a configuration's value (defaults do not count).
func isSet(value attr.Value) bool { return value != nil && !value.IsNull() }

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
