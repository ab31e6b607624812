package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
)

var _ action.ActionWithConfigure = (*templateRebuildAction)(nil)

// templateRebuildAction rebuilds a template now, bypassing build caches, and streams the build's
// progress (stage changes and build-log lines) to the CLI while it runs (Terraform >= 1.14).
type templateRebuildAction struct {
	backends *backendSet
}

func newTemplateRebuildAction() action.Action { return &templateRebuildAction{} }

type rebuildModel struct {
	Backend      types.String      `tfsdk:"backend"`
	TemplateID   types.String      `tfsdk:"template_id"`
	Image        types.String      `tfsdk:"image"`
	RegistryAuth *rebuildAuthModel `tfsdk:"registry_auth"`
	Packages     []string          `tfsdk:"packages"`
	StartCmd     types.String      `tfsdk:"start_cmd"`
	ReadyCmd     types.String      `tfsdk:"ready_cmd"`
	CPUCount     types.Int64       `tfsdk:"cpu_count"`
	MemoryMB     types.Int64       `tfsdk:"memory_mb"`
	Timeout      types.String      `tfsdk:"timeout"`
}

type rebuildAuthModel struct {
	Username           types.String `tfsdk:"username"`
	Password           types.String `tfsdk:"password"`
	AWSAccessKeyID     types.String `tfsdk:"aws_access_key_id"`
	AWSSecretAccessKey types.String `tfsdk:"aws_secret_access_key"`
	AWSRegion          types.String `tfsdk:"aws_region"`
	GCPServiceAccount  types.String `tfsdk:"gcp_service_account_json"`
}

func (a *templateRebuildAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_template_rebuild"
}

func (a *templateRebuildAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	str := func(description string) actionschema.StringAttribute {
		return actionschema.StringAttribute{Optional: true, MarkdownDescription: description}
	}
	// Not WriteOnly: terraform-plugin-framework v1.19 rejects any value of a write-only action
	// attribute ("WriteOnly Attribute Not Allowed"). Action configuration is never stored in state;
	// the plan prints it, so secrets come from sensitive variables, which it masks.
	secret := func(description string) actionschema.StringAttribute {
		return actionschema.StringAttribute{Optional: true,
			MarkdownDescription: description + " Not stored in state; pass it from a `sensitive` variable so the plan masks it."}
	}
	resp.Schema = actionschema.Schema{
		MarkdownDescription: "Rebuilds a sandbox template now, bypassing build caches (E2B `force`), and streams the build's " +
			"progress (stage changes and build-log lines) to the CLI as it happens. Give it the same build inputs as the " +
			"`sandbox_template` resource. It changes no state: the resource keeps its recorded outcome.",
		Attributes: map[string]actionschema.Attribute{
			"backend": actionschema.StringAttribute{Required: true,
				MarkdownDescription: "Backend of the template: " + backtickList(buildingBackends()) + ".",
				Validators:          []validator.String{backendOneOf(buildingBackends())}},
			"template_id": actionschema.StringAttribute{Required: true, MarkdownDescription: "Template to rebuild: " + templateNames(buildingBackends()) + "."},
			"image":       str("Container image to build from."),
			"registry_auth": actionschema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "Credentials for a private `image`: `username` and `password`, the `aws_*` trio, or `gcp_service_account_json`.",
				Attributes: map[string]actionschema.Attribute{
					"username":                 str("Registry username."),
					"password":                 secret("Registry password or token."),
					"aws_access_key_id":        str("AWS access key id (ECR)."),
					"aws_secret_access_key":    secret("AWS secret access key (ECR)."),
					"aws_region":               str("Region of the ECR registry."),
					"gcp_service_account_json": secret("Google service-account key: JSON content or a key file path."),
				}},
			"packages":  actionschema.ListAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Python packages baked into the template."},
			"start_cmd": str("Command started in every sandbox. Defaults to the backend's code-interpreter start command."),
			"ready_cmd": str("Command that succeeds once a sandbox is ready" + usedBy("ready_cmd") + "."),
			"cpu_count": actionschema.Int64Attribute{Optional: true, MarkdownDescription: "vCPUs per sandbox" + usedBy("cpu_count") + "."},
			"memory_mb": actionschema.Int64Attribute{Optional: true, MarkdownDescription: "Memory per sandbox in MiB" + usedBy("memory_mb") + "."},
			"timeout":   str("How long the rebuild may take, e.g. `45m`. Default `" + defaultUpdateTimeout + "`."),
		},
	}
}

func (a *templateRebuildAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.backends = backendsFrom(req.ProviderData, &resp.Diagnostics)
}

func (a *templateRebuildAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg rebuildModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.backends == nil {
		resp.Diagnostics.AddError("Provider not configured", "The sandbox provider was not configured before the action ran; please report this bug.")
		return
	}
	timeout, err := parseTimeout(cfg.Timeout, defaultUpdateTimeout)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout", err.Error())
		return
	}
	builder, err := a.backends.Builder(ctx, cfg.Backend.ValueString())
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

	progress(fmt.Sprintf("rebuilding %s template %s, bypassing build caches", cfg.Backend.ValueString(), cfg.TemplateID.ValueString()))
	result := builders.Rebuild(ctx, builder, cfg.spec(), obs)
	if result.Status == builders.StatusFailed {
		resp.Diagnostics.AddError(fmt.Sprintf("Template rebuild failed at stage %s", result.Stage), failureDetail(result))
		return
	}
	progress(strings.TrimSuffix(fmt.Sprintf("%s: %s", result.Status, result.Detail), ": "))
}

// parseTimeout reads a duration attribute, fallback when it is unset.
func parseTimeout(v types.String, fallback string) (time.Duration, error) {
	if v.IsNull() || v.IsUnknown() {
		return mustDuration(fallback), nil
	}
	return time.ParseDuration(v.ValueString())
}

// buildingBackends are the backends that build templates: the ones there is something to rebuild on.
func buildingBackends() []*builders.Backend { return backends.Where((*builders.Backend).Builds) }

func (m rebuildModel) spec() builders.TemplateSpec {
	spec := builders.TemplateSpec{
		TemplateID:   m.TemplateID.ValueString(),
		Image:        m.Image.ValueString(),
		Packages:     m.Packages,
		StartCmd:     m.StartCmd.ValueStringPointer(),
		ReadyCmd:     m.ReadyCmd.ValueString(),
		CPUCount:     int(m.CPUCount.ValueInt64()),
		MemoryMB:     int(m.MemoryMB.ValueInt64()),
		ForceRebuild: true,
	}
	switch a := m.RegistryAuth; {
	case a == nil:
	case !a.AWSAccessKeyID.IsNull():
		spec.RegistryAuth = &builders.AWSAuth{AccessKeyID: a.AWSAccessKeyID.ValueString(),
			SecretAccessKey: builders.NewSecret(a.AWSSecretAccessKey.ValueString()), Region: a.AWSRegion.ValueString()}
	case !a.GCPServiceAccount.IsNull():
		spec.RegistryAuth = &builders.GCPAuth{ServiceAccountJSON: builders.NewSecret(a.GCPServiceAccount.ValueString())}
	default:
		spec.RegistryAuth = &builders.BasicAuth{Username: a.Username.ValueString(), Password: builders.NewSecret(a.Password.ValueString())}
	}
	return spec
}
