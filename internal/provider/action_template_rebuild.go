package provider

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var (
	_ action.ActionWithConfigure      = (*templateRebuildAction)(nil)
	_ action.ActionWithValidateConfig = (*templateRebuildAction)(nil)
)

// templateRebuildAction rebuilds a template now, bypassing build caches, and streams the build's
// progress (stage changes and build-log lines) to the CLI while it runs (Terraform >= 1.14).
type templateRebuildAction struct {
	backends *backendSet
}

func newTemplateRebuildAction() action.Action { return &templateRebuildAction{} }

func (a *templateRebuildAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template_rebuild"
}

func (a *templateRebuildAction) Schema(ctx context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	str := func(description string) actionschema.StringAttribute {
		return actionschema.StringAttribute{Optional: true, MarkdownDescription: description}
	}
	// Not WriteOnly: terraform-plugin-framework v1.19 rejects any value of a write-only action
	// attribute ("WriteOnly Attribute Not Allowed"). Action configuration is never stored in state;
	// the plan prints it, so secrets come from sensitive variables, which it masks.
	secret := func(description string) actionschema.StringAttribute {
		return actionschema.StringAttribute{Required: true,
			MarkdownDescription: description + " Not stored in state; pass it from a `sensitive` variable so the plan masks it."}
	}
	resp.Schema = actionschema.Schema{
		MarkdownDescription: "Rebuilds a sandbox template now, bypassing build caches (E2B `force`), and streams the build's " +
			"progress (stage changes and build-log lines) to the CLI as it happens. Give it the same build inputs as the " +
			"`sandbox_template` resource, `steps` included. It changes no state: the resource keeps its recorded outcome.",
		Attributes: map[string]actionschema.Attribute{
			"backend": actionschema.StringAttribute{Required: true,
				MarkdownDescription: "Backend of the template: " + backtickList(buildingBackends()) + ".",
				Validators:          []validator.String{backendOneOf(buildingBackends())}},
			"template_id": actionschema.StringAttribute{Required: true, MarkdownDescription: "Template to rebuild: " + templateNames(buildingBackends()) + "."},
			"image":       str("Container image to build from."),
			"registry_auth": actionschema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Credentials for a private `image`, as the resource's `registry_auth` takes them (without " +
					"write-only twins): exactly one of `basic`, `aws` or `gcp`.",
				Attributes: map[string]actionschema.Attribute{
					"basic": actionschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Username and password login.",
						Attributes: map[string]actionschema.Attribute{
							"username": actionschema.StringAttribute{Required: true, MarkdownDescription: "Registry username."},
							"password": secret("Registry password or token."),
						}},
					"aws": actionschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "IAM credentials for Amazon ECR.",
						Attributes: map[string]actionschema.Attribute{
							"access_key_id":     actionschema.StringAttribute{Required: true, MarkdownDescription: "AWS access key id."},
							"secret_access_key": secret("AWS secret access key."),
							"region":            actionschema.StringAttribute{Required: true, MarkdownDescription: "Region of the registry (ECR tokens are regional)."},
						}},
					"gcp": actionschema.SingleNestedAttribute{Optional: true, MarkdownDescription: "Google service account for Artifact Registry / Container Registry.",
						Attributes: map[string]actionschema.Attribute{
							"service_account_json": secret("Service-account key: JSON content, or a path to a key file."),
						}},
				}},
			"packages":  actionschema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Python packages baked into the template."},
			"start_cmd": str("Command started in every sandbox. Defaults to the backend's code-interpreter start command."),
			"ready_cmd": str("Command that succeeds once a sandbox is ready" + usedBy("ready_cmd") + "."),
			"cpu_count": actionschema.Int64Attribute{Optional: true, MarkdownDescription: "vCPUs per sandbox" + usedBy("cpu_count") + "."},
			"memory_mb": actionschema.Int64Attribute{Optional: true, MarkdownDescription: "Memory per sandbox in MiB" + usedBy("memory_mb") + "."},
			"timeout":   str("How long the rebuild may take, e.g. `45m`. Default `" + defaultUpdateTimeout + "`."),
			builders.FieldTags: actionschema.SetAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Extra tags the build gets" + onlyTagging() + ", as the resource's `tags`."},
			builders.FieldCandidate: actionschema.BoolAttribute{Optional: true,
				MarkdownDescription: "Rebuild a candidate" + onlyTagging() + ": the build does not get " + liveTags() + ", so the plain " +
					"template name keeps starting the build it did. Set it as the resource's `candidate` is set."},
		},
	}
	maps.Copy(resp.Schema.Attributes, rebuildInputAttributes(ctx, resp.Schema.Attributes))
}

func (a *templateRebuildAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig checks the action's configuration with the resource's rules (checkSpec: the
// core's, on the attribute at fault) and its timeout, at plan time, before anything is invoked.
func (a *templateRebuildAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	model, timeout, diags := readActionModel(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if _, err := parseTimeout(timeout, defaultUpdateTimeout); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout", err.Error())
	}
	if model.Backend.IsNull() || model.Backend.IsUnknown() {
		return
	}
	if backend, err := backends.Named(model.Backend.ValueString()); err == nil { // else the backend's validator reports it
		checkSpec(ctx, model, backend, &resp.Diagnostics)
	}
}

func (a *templateRebuildAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	model, timeoutValue, diags := readActionModel(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.backends == nil {
		resp.Diagnostics.AddError("Provider not configured", "The sandbox provider was not configured before the action ran; please report this bug.")
		return
	}
	timeout, err := parseTimeout(timeoutValue, defaultUpdateTimeout)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout", err.Error())
		return
	}
	spec, diags := model.spec(ctx, model)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	spec.ForceRebuild = true
	builder, err := a.backends.Builder(ctx, model.Backend.ValueString())
	if err != nil {
		resp.Diagnostics.Append(notConfigured(err))
		return
	}
	var mu sync.Mutex // builders report from their own goroutines
	progress := func(line string) {
		mu.Lock()
		defer mu.Unlock()
		resp.SendProgress(action.InvokeProgressEvent{Message: line})
	}
	obs := builders.Observer{OnProgress: progress, OnCreated: func(ref builders.TemplateRef) {
		progress(fmt.Sprintf("%s template %s registered; building", ref.Provider, ref.Value))
	}}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	progress(fmt.Sprintf("rebuilding %s template %s, bypassing build caches", model.Backend.ValueString(), model.TemplateID.ValueString()))
	result := builders.Rebuild(ctx, builder, spec, obs)
	if result.Status == builders.StatusFailed {
		resp.Diagnostics.AddError(fmt.Sprintf("Template rebuild failed at stage %s", result.Stage), failureDetail(result))
		return
	}
	progress(strings.TrimSuffix(fmt.Sprintf("%s: %s", result.Status, result.Detail), ": "))
}

// parseTimeout reads a duration attribute, fallback when it is unset. Zero or a negative duration
// would expire the build at once: an input error, not a TIMEOUT.
func parseTimeout(v types.String, fallback string) (time.Duration, error) {
	if v.IsNull() || v.IsUnknown() {
		return mustDuration(fallback), nil
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout must be a positive duration such as \"45m\" or \"1h30m\", got %q", v.ValueString())
	}
	return d, nil
}

// buildingBackends are the backends that build templates: the ones there is something to rebuild on.
func buildingBackends() []*builders.Backend { return backends.Where((*builders.Backend).Builds) }

// readActionModel reads the action's configuration as the resource's model, so both map onto the
// core (and are checked) the same way: each attribute into the field of its name, what the action
// has no attribute for null; and its timeout.
func readActionModel(ctx context.Context, config tfsdk.Config) (templateModel, types.String, diag.Diagnostics) {
	var m templateModel
	var timeout types.String
	diags := config.GetAttribute(ctx, path.Root("timeout"), &timeout)
	var values map[string]tftypes.Value
	if err := config.Raw.As(&values); err != nil {
		diags.AddError("Unexpected sandbox_template_rebuild value", err.Error()+"; please report this bug")
		return m, timeout, diags
	}
	attributes := config.Schema.GetAttributes()
	for _, f := range templateCodec().fields {
		typ, value := f.typ, tftypes.NewValue(f.typ.TerraformType(ctx), nil)
		if a, ok := attributes[f.name]; ok {
			typ, value = a.GetType(), values[f.name]
		}
		v, err := typ.ValueFromTerraform(ctx, value)
		if err != nil {
			diags.AddError("Unexpected sandbox_template_rebuild value", fmt.Sprintf("%s: %v; please report this bug", f.name, err))
			return m, timeout, diags
		}
		m.set(f, v)
	}
	return m, timeout, diags
}
