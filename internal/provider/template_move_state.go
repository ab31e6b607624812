package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/backends"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b"
)

var _ resource.ResourceWithMoveState = (*templateResource)(nil)

// MoveState takes `moved { from = e2b_template.x  to = sandbox_template.x }` (Terraform >= 1.8,
// OpenTofu) from the community provider 536tech/e2b. Every input of its e2b_template replaces the
// template when it changes, so its state says what the template was built from: the moved state
// records those inputs as this resource's, and the next plan builds only when the configuration
// asks for other ones (showing which), as after any build of this resource. The refresh before that
// plan checks the template is still served, and by the recorded build when the old state kept one.
func (r *templateResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{SourceSchema: e2bTemplateSchemaV0(), StateMover: r.moveE2BTemplate},
		{SourceSchema: daytonaSnapshotSchemaV0(), StateMover: r.moveDaytonaSnapshot}}
}

// The resource MoveState accepts: its provider (on any registry host: Terraform's, OpenTofu's or a
// mirror's), its type, and the schema version whose state it reads.
const (
	e2bTemplateProvider      = "536tech/e2b"
	e2bTemplateType          = "e2b_template"
	e2bTemplateSchemaVersion = 0 // every release (0.1.0, 0.2.0): its schema declares no version
)

// e2bTemplateModel is the state of 536tech/e2b's e2b_template at schema version 0
// (internal/provider/template_resource.go of github.com/536tech/terraform-provider-e2b).
type e2bTemplateModel struct {
	ID            types.String `tfsdk:"id"`   // E2B's template id; sandbox_template names a template by its alias
	Name          types.String `tfsdk:"name"` // the alias, optionally ":tag"
	FromImage     types.String `tfsdk:"from_image"`
	StartCmd      types.String `tfsdk:"start_cmd"`
	ReadyCmd      types.String `tfsdk:"ready_cmd"`
	CPUCount      types.Int64  `tfsdk:"cpu_count"` // 0 when unset: E2B's default, which is this provider's too
	MemoryMB      types.Int64  `tfsdk:"memory_mb"`
	Force         types.Bool   `tfsdk:"force"`    // a create-time flag, as force_rebuild is
	BuildID       types.String `tfsdk:"build_id"` // "" once refreshed: GET /templates/{id} returns no buildID
	DiskSizeMB    types.Int64  `tfsdk:"disk_size_mb"`
	Public        types.Bool   `tfsdk:"public"`
	Aliases       types.List   `tfsdk:"aliases"`
	Names         types.List   `tfsdk:"names"`
	CreatedAt     types.String `tfsdk:"created_at"`
	UpdatedAt     types.String `tfsdk:"updated_at"`
	LastSpawnedAt types.String `tfsdk:"last_spawned_at"`
	SpawnCount    types.Int64  `tfsdk:"spawn_count"`
	BuildCount    types.Int64  `tfsdk:"build_count"`
	EnvdVersion   types.String `tfsdk:"envd_version"`
	BuildStatus   types.String `tfsdk:"build_status"`
}

// e2bTemplateSchemaV0 is e2b_template's schema at version 0, as far as decoding its state needs.
func e2bTemplateSchemaV0() *schema.Schema {
	str := func() schema.Attribute { return schema.StringAttribute{Optional: true} }
	num := func() schema.Attribute { return schema.Int64Attribute{Optional: true} }
	flag := func() schema.Attribute { return schema.BoolAttribute{Optional: true} }
	list := func() schema.Attribute { return schema.ListAttribute{Optional: true, ElementType: types.StringType} }
	return &schema.Schema{Attributes: map[string]schema.Attribute{
		"id": str(), "name": str(), "from_image": str(), "start_cmd": str(), "ready_cmd": str(),
		"cpu_count": num(), "memory_mb": num(), "force": flag(), "build_id": str(), "disk_size_mb": num(),
		"public": flag(), "aliases": list(), "names": list(), "created_at": str(), "updated_at": str(),
		"last_spawned_at": str(), "spawn_count": num(), "build_count": num(), "envd_version": str(), "build_status": str(),
	}}
}

// isE2BTemplate tells whether a moved resource is 536tech/e2b's e2b_template.
func isE2BTemplate(req resource.MoveStateRequest) bool {
	return req.SourceTypeName == e2bTemplateType &&
		(req.SourceProviderAddress == e2bTemplateProvider || strings.HasSuffix(req.SourceProviderAddress, "/"+e2bTemplateProvider))
}

func (r *templateResource) moveE2BTemplate(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if !isE2BTemplate(req) {
		return // another resource: the framework says none of the movers took it
	}
	if req.SourceSchemaVersion != e2bTemplateSchemaVersion {
		resp.Diagnostics.AddError("Unsupported e2b_template state",
			fmt.Sprintf("This state of %s's %s is at schema version %d; sandbox_template maps only schema version %d "+
				"(536tech/e2b 0.1.0 and 0.2.0). Import the template instead: an `import` block with id = \"e2b/<alias>\", "+
				"and a `removed` block (destroy = false) for the %s.",
				req.SourceProviderAddress, e2bTemplateType, req.SourceSchemaVersion, e2bTemplateSchemaVersion, e2bTemplateType))
		return
	}
	if req.SourceState == nil {
		resp.Diagnostics.AddError("Unreadable e2b_template state",
			fmt.Sprintf("The state of %s's %s does not have the attributes of its schema version %d, so it cannot be moved. "+
				"Import the template instead.", req.SourceProviderAddress, e2bTemplateType, e2bTemplateSchemaVersion))
		return
	}
	var old e2bTemplateModel
	resp.Diagnostics.Append(req.SourceState.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	alias, diags := movedAlias(old)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	moved := movedTemplate(old, alias, r.now())
	resp.Diagnostics.Append(setImportedAttributes(ctx, &resp.TargetState, string(e2b.Backend.Name), alias)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("image_digest_check"), defaultDigestCheck)...)
	for name, value := range map[string]any{"image": moved.Image, "start_cmd": moved.StartCmd, "ready_cmd": moved.ReadyCmd,
		"cpu_count": moved.CPUCount, "memory_mb": moved.MemoryMB} {
		resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(name), value)...)
	}
	resp.Diagnostics.Append(moved.setResultAttributes(ctx, &resp.TargetState)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.TargetIdentity, moved.Backend, moved.TemplateID)...)
	if !provesInputs(old) {
		// Its state proves no inputs, so the next plan adopts the configured ones as after an
		// import of the template (adoptsImport).
		resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, privateImported, []byte(`true`))...)
	}
	for _, warning := range movedWarnings(old, moved) {
		resp.Diagnostics.AddWarning("e2b_template moved to sandbox_template", warning)
	}
}

// movedAlias is the alias the template is named by: e2b_template's name without a tag (only the
// default tag is built and checked here), or, when the name is unset, its first alias.
func movedAlias(old e2bTemplateModel) (string, diag.Diagnostics) {
	var diags diag.Diagnostics
	alias, _, _ := strings.Cut(old.Name.ValueString(), ":")
	if alias == "" {
		var aliases []string
		diags.Append(old.Aliases.ElementsAs(context.Background(), &aliases, false)...)
		if len(aliases) > 0 {
			alias = aliases[0]
		}
	}
	if err := backends.ImportDefault.ValidateTemplateID(alias).Err(); err != nil || alias == "" {
		diags.AddError("e2b_template cannot be moved",
			fmt.Sprintf("Its name %q (template %s) is no E2B alias sandbox_template can name: %v. Import the template instead.",
				old.Name.ValueString(), old.ID.ValueString(), err))
	}
	return alias, diags
}

// movedTemplate is what sandbox_template records of e2b_template: the inputs its template was built
// from, with the meaning they have here, and a template found usable (SKIPPED: nothing was built).
func movedTemplate(old e2bTemplateModel, alias string, at time.Time) templateModel {
	m := templateModel{Backend: types.StringValue(string(e2b.Backend.Name)), TemplateID: types.StringValue(alias),
		Image: types.StringNull(), StartCmd: types.StringNull(), ReadyCmd: types.StringNull(),
		CPUCount: types.Int64Null(), MemoryMB: types.Int64Null()}
	if provesInputs(old) {
		m.Image, m.StartCmd, m.ReadyCmd = old.FromImage, old.StartCmd, old.ReadyCmd
		m.CPUCount, m.MemoryMB = positiveOrNull(old.CPUCount), positiveOrNull(old.MemoryMB)
		if m.StartCmd.IsNull() {
			m.StartCmd = types.StringValue("") // none was sent; unset here means the code-interpreter's
		}
	}
	detail := fmt.Sprintf("moved from %s (E2B template %s), which %s built; nothing was built", e2bTemplateType, old.ID.ValueString(), e2bTemplateProvider)
	m.setResult(builders.TemplateBuildResult{Status: builders.StatusSkipped, BuildID: provenBuild(old),
		TemplateRef: &builders.TemplateRef{Provider: e2b.Backend.Name, Value: alias}, Detail: detail}, at)
	return m
}

// provesInputs tells whether the old state records what its template was built from: not when it
// was imported into 536tech/e2b (an import sets no from_image, and refreshes never read one back).
func provesInputs(old e2bTemplateModel) bool { return old.FromImage.ValueString() != "" }

// provenBuild is the build the old state says it made, "" when it does not say: 536tech/e2b
// overwrites build_id with "" on every read (E2B's GET /templates/{id} has no buildID), and a build
// that did not finish, or of unknown inputs, proves nothing. Recorded, the refresh checks that the
// template still serves it (a template serving another build is SUPERSEDED, and the plan rebuilds).
func provenBuild(old e2bTemplateModel) string {
	id, status := old.BuildID.ValueString(), strings.ToLower(old.BuildStatus.ValueString())
	if !provesInputs(old) || id == "" || id == "00000000-0000-0000-0000-000000000000" || (status != "" && status != "ready") {
		return ""
	}
	return id
}

// positiveOrNull maps e2b_template's sizing, 0 when it was left to E2B's default, onto an unset one here.
func positiveOrNull(v types.Int64) types.Int64 {
	if v.ValueInt64() <= 0 {
		return types.Int64Null()
	}
	return v
}

// movedWarnings says what the move could not carry over as it was.
func movedWarnings(old e2bTemplateModel, moved templateModel) []string {
	var warnings []string
	if _, tag, found := strings.Cut(old.Name.ValueString(), ":"); found {
		warnings = append(warnings, fmt.Sprintf("e2b_template's name %q names the tag %q; sandbox_template builds and checks "+
			"the template's default tag, so the refresh adopts (or the plan rebuilds) the build `default` serves.", old.Name.ValueString(), tag))
	}
	if provesInputs(old) && old.StartCmd.IsNull() {
		warnings = append(warnings, "e2b_template had no start_cmd, so the template starts nothing: it is recorded as "+
			"start_cmd = \"\". Unset here means E2B's code-interpreter start command, so set start_cmd = \"\" to keep "+
			"the template as it is; leaving it unset rebuilds it.")
	}
	switch {
	case !provesInputs(old):
		warnings = append(warnings, "e2b_template records no from_image (it was imported), so nothing proves what the "+
			"template was built from: the next plan adopts the configured inputs as an import does.")
	case moved.BuildID.IsNull():
		warnings = append(warnings, "e2b_template's state keeps no build id, so the template's current build is taken "+
			"as the one it built from the inputs it records.")
	}
	return warnings
}
