package provider

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
	RemoveResource(ctx context.Context)
}

// createRecorder records a create in state: as soon as the backend reports that the template
// exists (status BUILDING), so a failed or interrupted wait never orphans it (Terraform keeps the
// resource, tainted, and the next apply replaces it: see Delete), and again with the outcome.
type createRecorder struct {
	plan  templateModel
	state stateSetter
	diags *diag.Diagnostics
	now   func() time.Time
	// dropFailed leaves a failed create out of state: the CLI would crash saving it (failedCreateCrashes).
	dropFailed bool

	mu      sync.Mutex // builders may report from their own goroutines
	created *builders.TemplateRef
}

// observer logs the build's progress and saves the state once the template exists.
func (c *createRecorder) observer(ctx context.Context) builders.Observer {
	obs := buildLogger(ctx, c.plan)
	obs.OnCreated = func(ref builders.TemplateRef) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.created = &ref
		pending := c.plan
		pending.setPending(ref, c.now())
		c.diags.Append(c.state.Set(ctx, pending)...)
	}
	return obs
}

// finish records the build's outcome. A failed build leaves state only when the template exists.
func (c *createRecorder) finish(ctx context.Context, result builders.TemplateBuildResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reportOutcome(result, c.diags)
	c.plan.setResult(result, c.now())
	if result.Status == builders.StatusFailed {
		if c.created == nil {
			return
		}
		if c.dropFailed {
			c.state.RemoveResource(ctx)
			c.diags.AddAttributeWarning(path.Root("template_id"), "Failed template left out of state", fmt.Sprintf(
				"Template %q exists on %s, but its create failed, and this Terraform version crashes and empties the state "+
					"file when it saves a failed create (a bug of Terraform 1.16; OpenTofu and Terraform 1.15 and earlier keep "+
					"it, tainted). It is left out of state instead: the next apply adopts it if it is ready and was built from "+
					"this configuration's inputs, and builds it otherwise. To remove it, delete it on %s.",
				c.created.Value, c.created.Provider, c.created.Provider))
			return
		}
		c.plan.TemplateRef = templateRefValue(c.created) // the template exists, whatever became of its build
	}
	c.diags.Append(c.state.Set(ctx, c.plan)...)
}
