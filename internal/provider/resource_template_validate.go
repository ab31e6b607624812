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
)

// checkSpec reports every problem the core finds in the spec a configuration describes on the
// attribute at fault, except those that read a value known only at apply (checked again then):
// the resource's and the rebuild action's rules are the same.
func checkSpec(ctx context.Context, cfg templateModel, backend *builders.Backend, diags *diag.Diagnostics) {
	spec, unknown, specDiags := cfg.configuredSpec(ctx)
	diags.Append(specDiags...)
	secrets := spec.StepSecrets() // a message may quote the value at fault: a URL with a token in it
	for _, problem := range spec.Validate(backend) {
		if unknownWithin(unknown, problem.Field) || unknown[problem.Root()] || slices.ContainsFunc(problem.Reads, func(field string) bool { return unknown[field] }) {
			continue // a value known only at apply: the rule is checked again then
		}
		diags.AddAttributeError(attributePath(problem), "Invalid "+problem.Field, builders.Scrub(problem.Error(), secrets...)+".")
	}
}

// configuredSpec is the spec a configuration describes, and the fields whose values are not known
// yet (they read as empty in the spec): top-level ones, and elements of packages.
func (m templateModel) configuredSpec(ctx context.Context) (builders.TemplateSpec, map[string]bool, diag.Diagnostics) {
	unknown := map[string]bool{}
	for _, f := range templateCodec().fields {
		if f.role != roleResult && f.role != roleOutput && f.name != "steps" { // steps: single steps, below
			unknown[f.name] = !fullyKnown(ctx, m.value(f))
		}
	}
	markUnknownSteps(m.Steps, unknown)
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
	if unknown[builders.FieldTags] {
		m.Tags = types.SetNull(types.StringType)
	}
	if unknown["ready_check"] {
		m.ReadyCheck = types.ObjectNull(m.ReadyCheck.AttributeTypes(ctx))
	}
	spec, diags := m.spec(ctx, m)
	if unknown["registry_auth"] {
		spec.RegistryAuth = nil
	}
	return spec, unknown, diags
}

// attributePath is where a problem points in the schema: its top-level attribute, or a list
// element (packages[1], steps[2]), never deeper: Terraform 1.5 and OpenTofu cannot point into an
// object literal (registry_auth, a step's fields) and would fall back to the resource line, while
// every CLI shows the step. The message names the field within it ("steps[2].apt.packages[0]").
func attributePath(problem builders.FieldError) path.Path {
	at := path.Root(problem.Root())
	_, index, isElement := strings.Cut(problem.Field, "[")
	index, _, _ = strings.Cut(index, "]")
	if i, err := strconv.Atoi(index); isElement && err == nil {
		return at.AtListIndex(i)
	}
	return at
}

// unknownWithin tells whether field, or a field it lies within ("steps[1]" for
// "steps[1].apt.packages[0]"), is not known yet.
func unknownWithin(unknown map[string]bool, field string) bool {
	for i, r := range field {
		if (r == '.' || r == '[') && unknown[field[:i]] {
			return true
		}
		if r == ']' && unknown[field[:i+1]] {
			return true
		}
	}
	return unknown[field]
}

// markUnknownSteps records steps not known yet: the whole list, or single steps ("steps[2]").
func markUnknownSteps(steps types.List, unknown map[string]bool) {
	if steps.IsUnknown() {
		unknown["steps"] = true
		return
	}
	_, pending := stepsOf(steps)
	for _, i := range pending {
		unknown[fmt.Sprintf("steps[%d]", i)] = true
	}
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
