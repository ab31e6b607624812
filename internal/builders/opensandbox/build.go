package opensandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// cleanupTimeout bounds deleting the builder sandbox, on a context of its own so that a cancelled
// or expired build still cleans up.
const cleanupTimeout = 30 * time.Second

// builderSandbox is the sandbox a build prepares. Its entrypoint is NeutralEntrypoint: the start
// command starts only after the steps (start_command.go).
type builderSandbox struct {
	id string
}

// Build makes the template: sandbox from image, packages and steps, snapshot named spec.TemplateID. The
// builder sandbox is deleted on every path. See the package doc for duplicates.
func (b *Builder) Build(ctx context.Context, spec builders.TemplateSpec, obs builders.Observer) (builders.TemplateBuildResult, error) {
	// The steps' possible credentials too: a command's log line and its output (git echoing its
	// URL) show them.
	logs := &buildLog{builders.BuildLog{Secrets: append(spec.StepSecrets(), b.api.APIKey), Progress: obs.Progress}}
	logs.warnings(spec)
	timeout, err := sandboxTimeoutSeconds(ctx, b.maxSandboxTimeout)
	if err != nil {
		return builders.TemplateBuildResult{}, withLogs(builders.AtStage(builders.StageValidation, err), "", logs)
	}
	auth, err := b.imageAuthFor(ctx, spec.Image, spec.RegistryAuth)
	if err != nil {
		return builders.TemplateBuildResult{}, withLogs(err, builders.StageRegistryAuth, logs)
	}
	if auth != nil {
		logs.Secrets = append(logs.Secrets, auth.Password)
	}

	b.deleteDeadBuilders(ctx, spec.TemplateID, logs)
	created, err := b.api.createSandbox(ctx, createSandboxRequest{
		Image:      imageSpec{URI: spec.Image, Auth: auth},
		Entrypoint: append([]string(nil), NeutralEntrypoint...), ResourceLimits: DefaultResourceLimits,
		Metadata: BuilderMetadata(spec.TemplateID, newBuildID(), os.Getpid()), Timeout: timeout,
	})
	if err != nil {
		return builders.TemplateBuildResult{}, withLogs(builders.AtStage(createStage(err), fmt.Errorf("creating the builder sandbox: %w%s", err, timeoutHint(err))), "", logs)
	}
	sb := builderSandbox{id: created.ID}
	logs.Addf("builder sandbox %s created from %s", sb.id, spec.Image)
	cleaned := false
	defer func() { // a panic further down must not leak the sandbox either
		if !cleaned {
			b.deleteBuilderSandbox(ctx, sb.id, logs)
		}
	}()

	snap, err := b.prepareAndSnapshot(ctx, sb, spec, logs, obs)
	b.deleteBuilderSandbox(ctx, sb.id, logs)
	cleaned = true
	if err != nil && !b.superseded(ctx, spec.TemplateID, snap, err, logs) {
		return builders.TemplateBuildResult{}, b.failed(ctx, err, snap, logs)
	}
	if err == nil {
		logs.Addf("snapshot %s (%s) is Ready", spec.TemplateID, snap.ID)
		b.settleName(ctx, spec.TemplateID, snap, logs)
	}
	result := builders.Succeeded(Name, spec.TemplateID, logs.Lines())
	// What consumers now resolve the name to: ours, or a newer one a concurrent build left. Unknown
	// after a failed look-up; the next refresh records it.
	result.BuildID, _ = b.Serving(ctx, spec.TemplateID, false, "")
	return result, nil
}

// prepareAndSnapshot runs steps 1–3 of the package doc on a created sandbox. The snapshot is
// returned (with an id) as soon as it exists, also when waiting for it then fails.
func (b *Builder) prepareAndSnapshot(ctx context.Context, sb builderSandbox, spec builders.TemplateSpec, logs *buildLog, obs builders.Observer) (snapshot, error) {
	if err := b.waitRunning(ctx, sb); err != nil {
		return snapshot{}, err
	}
	logs.Addf("builder sandbox %s is Running", sb.id)
	if len(spec.BuildSteps()) > 0 || spec.ReadyCommand() != "" || startsSomething(spec) {
		if err := b.prepare(ctx, sb, spec, logs); err != nil {
			return snapshot{}, err
		}
	}
	// Check again that the sandbox runs, so a dead one is never snapshotted.
	if err := b.waitRunning(ctx, sb); err != nil {
		return snapshot{}, err
	}
	snap, err := b.api.createSnapshot(ctx, sb.id, spec.TemplateID)
	if err != nil {
		return snapshot{}, builders.AtStage(builders.StageSnapshot, fmt.Errorf("creating snapshot %s: %w", spec.TemplateID, err))
	}
	logs.Addf("snapshot %s (%s) created", spec.TemplateID, snap.ID)
	obs.Created(builders.TemplateRef{Provider: Name, Value: spec.TemplateID})
	return snap, b.waitSnapshotReady(ctx, snap.ID)
}

// prepare runs the steps, starts the start command and waits for the ready command in the builder
// sandbox, through its execd.
func (b *Builder) prepare(ctx context.Context, sb builderSandbox, spec builders.TemplateSpec, logs *buildLog) error {
	ex, err := b.api.execd(ctx, sb.id)
	if err != nil {
		return builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("reaching execd: %w", err))
	}
	// execd answers nothing once the sandbox ended, so the wait for it checks that it still runs.
	if err := ex.waitReady(ctx, b.pollInterval, func() error { return b.waitRunning(ctx, sb) }); err != nil {
		if builders.StageOf(err, "") != "" {
			return err // the sandbox ended: waitRunning said why
		}
		return builders.AtStage(builders.StageTemplateBuild, err)
	}
	return b.runSteps(ctx, ex, spec, logs)
}

// outputTailLines are the last output lines a failed command's error repeats.
const outputTailLines = 5

// exitCodeNotFound is the shell's exit code for a program it cannot find.
const exitCodeNotFound = 127

// commandFailed says which command failed, how, and what it printed last. execd runs it with bash,
// which exits 127 for a program it cannot find (OSB execd/pkg/runtime/command.go).
func commandFailed(command string, result commandResult, logs *buildLog) error {
	hint := ""
	if program, _, _ := strings.Cut(strings.TrimSpace(command), " "); result.ExitCode == exitCodeNotFound {
		fix := "install it in an earlier step (apt) or build from an image that has it"
		if program == "python3" {
			fix = "install packages into an image that has Python and pip, such as " + CodeInterpreterImage + " or python:3.12"
		}
		hint = fmt.Sprintf(" (the shell's \"command not found\": the image has no %s; %s)", program, fix)
	}
	msg := fmt.Sprintf("`%s` failed with %s%s", builders.Scrub(command, logs.Secrets...), result.Error, hint)
	if len(result.Output) > 0 {
		msg += "; its last output:"
	}
	output := scrubbedOutput(result.Output, logs.Secrets)
	for _, line := range output[max(0, len(output)-outputTailLines):] {
		msg += "\n  " + line
	}
	return errors.New(msg)
}

// failed attaches the logs to err and removes a snapshot that ended Failed: it can never be used,
// and IsUsable ignores it anyway. A snapshot interrupted while Creating stays; Delete handles it.
func (b *Builder) failed(ctx context.Context, err error, snap snapshot, logs *buildLog) error {
	if snap.ID != "" && builders.StageOf(err, "") == builders.StageSnapshot {
		cleanupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if delErr := b.api.deleteSnapshot(cleanupCtx, snap.ID); delErr != nil && !apihttp.IsNotFound(delErr) {
			logs.Addf("warning: could not delete the failed snapshot %s: %v", snap.ID, delErr)
		}
	}
	return withLogs(err, builders.StageTemplateBuild, logs)
}

// withLogs attaches the build logs to err, keeping its stage (or fallback for a bare error)
// without nesting a second stage prefix into the detail. Every failure of Build leaves through
// here, so this is where its text is scrubbed: a sandbox's status.message is the server's.
func withLogs(err error, fallback builders.Stage, logs *buildLog) error {
	var se *builders.StageError
	if errors.As(err, &se) && se == err {
		return builders.ScrubError(builders.AtStage(se.Stage, se.Err, logs.Lines()...), logs.Secrets...)
	}
	return builders.ScrubError(builders.AtStage(builders.StageOf(err, fallback), err, logs.Lines()...), logs.Secrets...)
}

// deleteBuilderSandbox runs on every path out of Build, before the result is made (so its
// outcome is in the logs), on a fresh context: the build's may be
// cancelled or past its deadline. A failure is logged, not fatal: the sandbox expires by its TTL.
func (b *Builder) deleteBuilderSandbox(ctx context.Context, id string, logs *buildLog) {
	cleanupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if err := b.api.deleteSandbox(cleanupCtx, id); err != nil && !apihttp.IsNotFound(err) {
		logs.Addf("warning: could not delete builder sandbox %s (it expires on its own): %v", id, err)
		return
	}
	logs.Addf("builder sandbox %s deleted", id)
}

// timeoutHint points at the provider setting when the server refused the sandbox's timeout
// (validators.py ensure_timeout_within_limit: "Sandbox timeout Ns exceeds configured maximum").
func timeoutHint(err error) string {
	if e, ok := apihttp.AsError(err); ok && e.StatusCode == http.StatusBadRequest && strings.Contains(e.Message, "exceeds configured maximum") {
		return "; set max_sandbox_timeout_seconds in the provider's opensandbox block to the server's server.max_sandbox_timeout_seconds"
	}
	return ""
}

// createStage tells an image pull failure reported synchronously (the Docker runtime answers
// POST /sandboxes with 500 DOCKER::SANDBOX_IMAGE_PULL_FAILED) from other create failures.
func createStage(err error) builders.Stage {
	if e, ok := apihttp.AsError(err); ok && builders.IsImagePullFailure(e.Code, e.Message) {
		return builders.StageImagePull
	}
	return builders.StageTemplateCreate
}
