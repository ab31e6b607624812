package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/daytona"
)

// `moved { from = daytona_snapshot.x  to = sandbox_template.x }` (Terraform >= 1.8, OpenTofu) from
// the community Daytona provider. A Daytona snapshot cannot be renamed or changed, and this
// provider's builds are named <template_id>:inputs-<fingerprint> (internal/builders/daytona): a
// snapshot's name is the only proof of what it was built from that the refresh and plan can check.
// So a moved snapshot carrying such a name is adopted as an import is (the plan builds only when
// the name's fingerprint is not the configuration's), and any other snapshot is recorded as
// serving a build this resource did not make (SUPERSEDED): the next apply builds the template's
// own snapshot, and template_ref follows it once it is active. The old snapshot is left in place,
// as every snapshot this provider did not name is: consumers that start sandboxes from it by name
// keep it, never finding nothing to start.

// The resource the Daytona mover accepts: the provider was published as jwmoss/daytona (0.1.0 to
// 0.7.0), then as 536tech/daytona (0.8.0 on); on any registry host.
var daytonaSnapshotProviders = []string{"jwmoss/daytona", "536tech/daytona"}

const (
	daytonaSnapshotType          = "daytona_snapshot"
	daytonaSnapshotSchemaVersion = 0 // every release (0.1.0 to 0.10.0): its schema declares no version
)

// daytonaSnapshotModel is daytona_snapshot's state at schema version 0
// (internal/provider/snapshot_resource.go of github.com/jwmoss/terraform-provider-daytona).
// gpu_type, gpu_types and build_info came with 0.6.0: null in an older release's state.
type daytonaSnapshotModel struct {
	ID             types.String `tfsdk:"id"`
	Name           types.String `tfsdk:"name"` // what consumers start sandboxes from
	OrganizationID types.String `tfsdk:"organization_id"`
	ImageName      types.String `tfsdk:"image_name"`
	Entrypoint     types.List   `tfsdk:"entrypoint"`
	CPU            types.Int64  `tfsdk:"cpu"`
	GPU            types.Int64  `tfsdk:"gpu"`
	GPUType        types.String `tfsdk:"gpu_type"`
	GPUTypes       types.List   `tfsdk:"gpu_types"`
	Memory         types.Int64  `tfsdk:"memory"` // GB
	Disk           types.Int64  `tfsdk:"disk"`   // GB
	BuildInfo      types.Object `tfsdk:"build_info"`
	RegionID       types.String `tfsdk:"region_id"`
	RegionIDs      types.List   `tfsdk:"region_ids"`
	SandboxClass   types.String `tfsdk:"sandbox_class"`
	State          types.String `tfsdk:"state"`
	Ref            types.String `tfsdk:"ref"`
	General        types.Bool   `tfsdk:"general"`
	Size           types.String `tfsdk:"size"`
	CreatedAt      types.String `tfsdk:"created_at"`
	UpdatedAt      types.String `tfsdk:"updated_at"`
	ErrorReason    types.String `tfsdk:"error_reason"`
}

// daytonaSnapshotSchemaV0 is daytona_snapshot's schema at version 0, as far as decoding its state
// needs: every release's attributes (one missing from a state is read as null).
func daytonaSnapshotSchemaV0() *schema.Schema {
	str := func() schema.Attribute { return schema.StringAttribute{Optional: true} }
	num := func() schema.Attribute { return schema.Int64Attribute{Optional: true} }
	list := func() schema.Attribute { return schema.ListAttribute{Optional: true, ElementType: types.StringType} }
	return &schema.Schema{Attributes: map[string]schema.Attribute{
		"id": str(), "name": str(), "organization_id": str(), "image_name": str(), "entrypoint": list(),
		"cpu": num(), "gpu": num(), "gpu_type": str(), "gpu_types": list(), "memory": num(), "disk": num(),
		"build_info": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
			"dockerfile_content": str(), "context_hashes": list(), "created_at": str(), "updated_at": str(), "snapshot_ref": str()}},
		"region_id": str(), "region_ids": list(), "sandbox_class": str(), "state": str(), "ref": str(),
		"general": schema.BoolAttribute{Optional: true}, "size": str(), "created_at": str(), "updated_at": str(), "error_reason": str(),
	}}
}

// isDaytonaSnapshot tells whether a moved resource is the community Daytona provider's snapshot.
func isDaytonaSnapshot(req resource.MoveStateRequest) bool {
	return req.SourceTypeName == daytonaSnapshotType && slices.ContainsFunc(daytonaSnapshotProviders, func(p string) bool {
		return req.SourceProviderAddress == p || strings.HasSuffix(req.SourceProviderAddress, "/"+p)
	})
}

// daytonaMoveFallback is what to do instead when a snapshot cannot be moved.
const daytonaMoveFallback = "Declare the sandbox_template without the moved block, and a `removed` block (lifecycle { destroy = false }) " +
	"for the daytona_snapshot: the apply builds the template's own snapshot and leaves the old one to whoever uses it."

func (r *templateResource) moveDaytonaSnapshot(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if !isDaytonaSnapshot(req) {
		return // another resource: the framework says none of the movers took it
	}
	if req.SourceSchemaVersion != daytonaSnapshotSchemaVersion {
		resp.Diagnostics.AddError("Unsupported daytona_snapshot state",
			fmt.Sprintf("This state of %s's %s is at schema version %d; sandbox_template maps only schema version %d "+
				"(releases 0.1.0 to 0.10.0). %s", req.SourceProviderAddress, daytonaSnapshotType, req.SourceSchemaVersion,
				daytonaSnapshotSchemaVersion, daytonaMoveFallback))
		return
	}
	if req.SourceState == nil {
		resp.Diagnostics.AddError("Unreadable daytona_snapshot state",
			fmt.Sprintf("The state of %s's %s does not have the attributes of its schema version %d, so it cannot be moved. %s",
				req.SourceProviderAddress, daytonaSnapshotType, daytonaSnapshotSchemaVersion, daytonaMoveFallback))
		return
	}
	var old daytonaSnapshotModel
	resp.Diagnostics.Append(req.SourceState.Get(ctx, &old)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := old.Name.ValueString()
	templateID, ours := movedSnapshotTemplate(name)
	if err := daytona.Backend.ValidateTemplateID(templateID).Err(); err != nil {
		resp.Diagnostics.AddError("daytona_snapshot cannot be moved",
			fmt.Sprintf("Its name %q names no template id sandbox_template can build under: %v. %s", name, err, daytonaMoveFallback))
		return
	}
	moved := movedSnapshot(ctx, old, templateID, ours, req.SourceProviderAddress, r.now())
	resp.Diagnostics.Append(setImportedAttributes(ctx, &resp.TargetState, string(daytona.Name), templateID)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("image_digest_check"), defaultDigestCheck)...)
	for name, value := range map[string]any{"image": moved.Image, "start_cmd": moved.StartCmd, "cpu_count": moved.CPUCount,
		"memory_mb": moved.MemoryMB, "disk_gb": moved.DiskGB, "gpu_count": moved.GPUCount} {
		resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root(name), value)...)
	}
	resp.Diagnostics.Append(moved.setResultAttributes(ctx, &resp.TargetState)...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.TargetIdentity, moved.Backend, moved.TemplateID)...)
	if ours {
		// Its name proves its inputs: the next plan compares them with the configured ones as
		// after an import (adoptsImport), and builds only when they differ.
		resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, privateImported, []byte(`true`))...)
	}
	for _, warning := range movedSnapshotWarnings(old, templateID, ours) {
		resp.Diagnostics.AddWarning("daytona_snapshot moved to sandbox_template", warning)
	}
}

// movedSnapshotTemplate is the template a snapshot name is a build of, and whether this provider
// named it (<template_id>:inputs-<fingerprint>); else the name, up to a ":" (a tag-like suffix).
func movedSnapshotTemplate(name string) (templateID string, ours bool) {
	if id := daytona.TemplateOf(name); id != "" {
		return id, true
	}
	templateID, _, _ = strings.Cut(name, ":")
	return templateID, false
}

// movedSnapshot is what sandbox_template records of a daytona_snapshot: the snapshot consumers
// start from as its build and template_ref. One this provider named records no inputs (the plan
// adopts the configured ones when its name's fingerprint is theirs); any other records the inputs
// its state proves, so the plan shows what changes, and is SUPERSEDED, so the next apply builds.
func movedSnapshot(ctx context.Context, old daytonaSnapshotModel, templateID string, ours bool, provider string, at time.Time) templateModel {
	name := old.Name.ValueString()
	m := templateModel{Backend: types.StringValue(string(daytona.Name)), TemplateID: types.StringValue(templateID),
		Image: types.StringNull(), StartCmd: types.StringNull(), CPUCount: types.Int64Null(), MemoryMB: types.Int64Null(),
		DiskGB: types.Int64Null(), GPUCount: types.Int64Null()}
	result := builders.TemplateBuildResult{Status: builders.StatusSkipped, BuildID: name,
		TemplateRef: &builders.TemplateRef{Provider: daytona.Name, Value: name},
		Detail:      fmt.Sprintf("moved from %s %s (%s); nothing was built", daytonaSnapshotType, name, provider)}
	if !ours {
		if !hasDockerfile(old) {
			m.Image = nullIfEmpty(old.ImageName) // a Dockerfile's image is no input this provider can read back
		}
		m.StartCmd = startCmdOf(ctx, old.Entrypoint)
		m.CPUCount, m.GPUCount, m.DiskGB = positiveOrNull(old.CPU), positiveOrNull(old.GPU), positiveOrNull(old.Disk)
		if gb := old.Memory.ValueInt64(); gb > 0 {
			m.MemoryMB = types.Int64Value(gb * 1024) // whole GB there, MB here
		}
		result.Detail = fmt.Sprintf("it serves snapshot %s, which %s's %s made: its name carries no fingerprint of the inputs "+
			"it was built from (%s:inputs-<fingerprint>), so the next apply builds the template's own snapshot; %s is left "+
			"in place for whoever starts sandboxes from it by name", name, provider, daytonaSnapshotType, templateID, name)
	}
	m.setResult(result, at)
	if !ours {
		m.Status = types.StringValue(statusSuperseded) // the plan rebuilds (lifecycleSuperseded), saying why
	}
	return m
}

// hasDockerfile tells whether daytona_snapshot built its snapshot from build_info's Dockerfile.
func hasDockerfile(old daytonaSnapshotModel) bool {
	content, _ := old.BuildInfo.Attributes()["dockerfile_content"].(types.String)
	return content.ValueString() != ""
}

// startCmdOf is the start command of an entrypoint: this provider's own form, /bin/sh -c <cmd>,
// read back as <cmd>; any other as its arguments quoted for a shell. Null when there is none.
func startCmdOf(ctx context.Context, entrypoint types.List) types.String {
	var args []string
	if entrypoint.IsNull() || entrypoint.IsUnknown() || entrypoint.ElementsAs(ctx, &args, false).HasError() || len(args) == 0 {
		return types.StringNull()
	}
	if len(args) == 3 && args[0] == "/bin/sh" && args[1] == "-c" {
		return types.StringValue(args[2])
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = builders.ShellQuoteIfNeeded(a)
	}
	return types.StringValue(strings.Join(quoted, " "))
}

func nullIfEmpty(v types.String) types.String {
	if v.ValueString() == "" {
		return types.StringNull()
	}
	return v
}

// movedSnapshotWarnings says what the next plan does with the moved snapshot, and what the move
// could not carry over as it was.
func movedSnapshotWarnings(old daytonaSnapshotModel, templateID string, ours bool) []string {
	name := old.Name.ValueString()
	if ours {
		return []string{fmt.Sprintf("Snapshot %s is a build of template %q named by its inputs: the next plan adopts it "+
			"without building when the configured inputs are the ones its name records, and builds otherwise.", name, templateID)}
	}
	warnings := []string{fmt.Sprintf("Snapshot %s is not named by the inputs it was built from, so nothing proves it matches "+
		"the configuration: the next apply builds snapshot %s:inputs-<fingerprint>, and template_ref names it once it is active. "+
		"%s stays in Daytona (sandbox_template removes only snapshots it named): delete it once nothing starts sandboxes from it.",
		name, templateID, name)}
	if templateID != name {
		warnings = append(warnings, fmt.Sprintf("template_id is %q: the snapshot's name %q up to its \":\".", templateID, name))
	}
	if hasDockerfile(old) {
		warnings = append(warnings, "The snapshot was built from a Dockerfile (build_info): its image is not recorded; "+
			"describe the build with image, packages and steps.")
	}
	return warnings
}
