package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// buildRecorder records a build in state, the one way Create and Update both do it.
//
// A create is saved as soon as the backend reports that the template exists (status BUILDING), so
// a failed or interrupted wait never orphans it (Terraform keeps the resource, tainted, and the
// next apply replaces it: see Delete), and again with the outcome. A failed update keeps the prior
// state, with its inputs (so the next plan retries the update) and its template_ref (the template
// still serves its previous build), and says the rebuild failed; a retry adopts the build if it
// finished after all (builders.Rebuild).
type buildRecorder struct {
	plan  templateModel
	prior *templateModel // the state an update started from; nil for a create
	state *tfsdk.State
	diags *diag.Diagnostics
	now   func() time.Time
	// dropFailed leaves a failed create out of state: the CLI would crash saving it (failedCreateCrashes).
	dropFailed bool

	mu      sync.Mutex // builders may report from their own goroutines
	created *builders.TemplateRef
}

// observer logs the build's progress and, for a create, saves the state once the template exists.
func (c *buildRecorder) observer(ctx context.Context) builders.Observer {
	obs := buildLogger(ctx, c.plan)
	if c.prior != nil {
		return obs
	}
	obs.OnCreated = func(ref builders.TemplateRef) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.created = &ref
		pending := c.plan
		pending.setPending(ref, c.now())
		c.diags.Append(writeModel(ctx, pending, &c.state.Raw)...)
	}
	return obs
}

// finish records the build's outcome.
func (c *buildRecorder) finish(ctx context.Context, result builders.TemplateBuildResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reportOutcome(result, c.diags)
	record := c.plan
	switch {
	case result.Status != builders.StatusFailed:
		record.setResult(result, c.now())
	case c.prior != nil:
		record = *c.prior
		record.Status, record.Stage, record.Detail, record.Logs = types.StringValue(string(result.Status)),
			types.StringValue(string(result.Stage)), types.StringValue(result.Detail), logTail(result.Logs)
	case c.created == nil:
		return // a create that failed before the template existed leaves nothing to record
	case c.dropFailed:
		c.state.RemoveResource(ctx)
		c.diags.AddAttributeWarning(path.Root("template_id"), "Failed template left out of state", fmt.Sprintf(
			"Template %q exists on %s, but its create failed, and this Terraform version crashes and empties the state "+
				"file when it saves a failed create (a bug of Terraform 1.16; OpenTofu and Terraform 1.15 and earlier keep "+
				"it, tainted). It is left out of state instead: the next apply adopts it if it is ready and was built from "+
				"this configuration's inputs, and builds it otherwise. To remove it, delete it on %s.",
			c.created.Value, c.created.Provider, c.created.Provider))
		return
	default:
		record.setResult(result, c.now())
		record.TemplateRef = templateRefValue(c.created) // the template exists, whatever became of its build
	}
	c.diags.Append(writeModel(ctx, record, &c.state.Raw)...)
}

// buildLogger logs a build's progress (e.g. waiting for a free build slot) to the provider log.
func buildLogger(ctx context.Context, plan templateModel) builders.Observer {
	fields := map[string]any{"backend": plan.Backend.ValueString(), "template_id": plan.TemplateID.ValueString()}
	tflog.Info(ctx, "building sandbox template", fields)
	return builders.Observer{OnProgress: func(line string) { tflog.Info(ctx, line, fields) }}
}

// reportOutcome turns a failed or unsupported build into the diagnostic that says so.
func reportOutcome(result builders.TemplateBuildResult, diags *diag.Diagnostics) {
	for _, warning := range result.Warnings {
		diags.AddAttributeWarning(path.Root("template_id"), "Sandbox template rebuilt", warning)
	}
	switch result.Status {
	case builders.StatusFailed:
		diags.AddError(fmt.Sprintf("Template build failed at stage %s", result.Stage), failureDetail(result))
	case builders.StatusUnsupported:
		diags.AddAttributeWarning(path.Root("backend"), "Backend has no templates",
			result.Detail+" The resource is recorded with status UNSUPPORTED and a null template_ref.")
	}
}

func failureDetail(result builders.TemplateBuildResult) string {
	var b strings.Builder
	b.WriteString(result.Detail)
	if len(result.Logs) > 0 {
		tail := result.Logs
		if len(tail) > 20 {
			tail = tail[len(tail)-20:]
		}
		b.WriteString("\n\nLast build log lines:\n  ")
		b.WriteString(strings.Join(tail, "\n  "))
	}
	return b.String()
}
