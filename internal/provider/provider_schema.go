package provider

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

// providerSchema is request_timeout plus a block per backend's settings, derived from the
// backends' descriptors. Every setting falls back to the environment variable the vendor's own
// SDK reads, so CI can configure the provider without HCL.
func providerSchema() schema.Schema {
	s := schema.Schema{
		MarkdownDescription: "Declares sandbox templates for AI code-execution sandboxes on " + titles(backends.All) +
			". Configure only the backends you use; each setting falls back to the environment variable the vendor's SDK reads.",
		Attributes: map[string]schema.Attribute{
			"request_timeout": schema.StringAttribute{Optional: true,
				MarkdownDescription: "How long one API request may wait for its answer, and how long a refresh or a data " +
					"source read may take, as a duration (`30s`, `2m`). A stalled backend then fails the plan, naming the " +
					"template and the backend, instead of hanging. Defaults to `2m`."},
		},
		Blocks: map[string]schema.Block{},
	}
	descriptions := map[string]string{}
	for _, b := range backends.All {
		for _, block := range b.Blocks {
			if descriptions[block.Path] == "" {
				descriptions[block.Path] = block.Description
			}
		}
	}
	for _, setting := range allSettings() {
		names := strings.Split(setting.Path, ".")
		attributes, blocks := s.Attributes, s.Blocks
		for i, name := range names[:len(names)-1] {
			block, ok := blocks[name].(schema.SingleNestedBlock)
			if !ok {
				block = schema.SingleNestedBlock{MarkdownDescription: descriptions[strings.Join(names[:i+1], ".")],
					Attributes: map[string]schema.Attribute{}, Blocks: map[string]schema.Block{}}
				blocks[name] = block
			}
			attributes, blocks = block.Attributes, block.Blocks
		}
		attributes[names[len(names)-1]] = settingAttribute(setting)
	}
	return s
}

func settingAttribute(s builders.Setting) schema.Attribute {
	if s.Int {
		var validators []validator.Int64
		if s.Min != 0 {
			validators = append(validators, int64validator.AtLeast(s.Min))
		}
		return schema.Int64Attribute{Optional: true, Sensitive: s.Sensitive, MarkdownDescription: s.Description, Validators: validators}
	}
	return schema.StringAttribute{Optional: true, Sensitive: s.Sensitive, MarkdownDescription: s.Description}
}

// allSettings are every backend's settings and the shared ones.
func allSettings() []builders.Setting {
	settings := append([]builders.Setting(nil), backends.SharedSettings...)
	for _, b := range backends.All {
		settings = append(settings, b.Settings...)
	}
	return settings
}

// readSettings reads every setting the provider block sets (an absent block reads as unset), and
// the environment fallback of each one it leaves unset: the only place the provider reads the
// environment.
func readSettings(ctx context.Context, config tfsdk.Config, getenv func(string) string) (builders.Settings, diag.Diagnostics) {
	var diags diag.Diagnostics
	settings := builders.Settings{Values: map[string]string{}, Unknown: map[string]bool{}}
	for _, setting := range allSettings() {
		at := settingPath(setting.Path)
		var value string
		var null, unknown bool
		if setting.Int {
			var v types.Int64
			diags.Append(config.GetAttribute(ctx, at, &v)...)
			value, null, unknown = strconv.FormatInt(v.ValueInt64(), 10), v.IsNull(), v.IsUnknown()
		} else {
			var v types.String
			diags.Append(config.GetAttribute(ctx, at, &v)...)
			value, null, unknown = v.ValueString(), v.IsNull(), v.IsUnknown()
		}
		if null || unknown || value == "" {
			value = setting.Fallback(getenv)
		}
		if unknown {
			settings.Unknown[setting.Path] = true
		}
		if value != "" {
			settings.Values[setting.Path] = value
		}
	}
	return settings, diags
}

func settingPath(dotted string) path.Path {
	names := strings.Split(dotted, ".")
	at := path.Root(names[0])
	for _, name := range names[1:] {
		at = at.AtName(name)
	}
	return at
}
