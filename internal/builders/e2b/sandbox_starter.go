package e2b

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/proto"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/e2b/envdprocess"
)

// defaultSandboxLifetime is the timeout sent when the request sets none: the SDKs' default
// (DEFAULT_SANDBOX_TIMEOUT_MS), not the API's 15 seconds, which a check could outlast.
const defaultSandboxLifetime = 5 * time.Minute

// closeTimeout bounds ending a sandbox after the caller's context is gone (an interrupt).
const closeTimeout = 30 * time.Second

// newSandboxRequest is the API's NewSandbox: what the SDK's Sandbox.create sends that a check uses.
type newSandboxRequest struct {
	TemplateID string            `json:"templateID"`
	Timeout    int32             `json:"timeout"` // seconds
	EnvVars    map[string]string `json:"envVars,omitempty"`
	Metadata   map[string]string `json:"metadata,omitempty"`
	// Secure asks for an envd that wants the answer's access token, as the SDKs do by default.
	Secure bool `json:"secure"`
}

// createdSandbox is the API's Sandbox: the created sandbox and how to reach its envd.
type createdSandbox struct {
	SandboxID       string `json:"sandboxID"`
	TemplateID      string `json:"templateID"`
	EnvdVersion     string `json:"envdVersion"`
	EnvdAccessToken string `json:"envdAccessToken"`
	Domain          string `json:"domain"`
}

// StartSandbox starts a sandbox from exactly req.Build, as a consumer does with the SDK's
// Sandbox.create("<template>:<build id>") (POST /sandboxes; a build id in a tag's place names that
// build only: tags.go): the template's sandbox_env as its envVars, req.Lifetime as its timeout (E2B
// kills it then, whoever forgot it), req.Labels as its metadata, secure as the SDKs ask (its envd
// takes only the access token the answer carries, which the provider keeps for Run alone). E2B keeps the template's user and
// workdir, and starts its start command itself: req.Entrypoint has no E2B counterpart.
func (b *Builder) StartSandbox(ctx context.Context, req builders.SandboxRequest) (builders.Sandbox, error) {
	ref, err := exactBuild(req.TemplateID, req.Build)
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	body := newSandboxRequest{TemplateID: ref, Timeout: lifetimeSeconds(req.Lifetime),
		EnvVars: req.Env, Metadata: req.Labels, Secure: true}
	var created createdSandbox
	// Not retried once it may have reached E2B (a second sandbox nobody ends); it runs on briefly
	// after an interrupt, so the sandbox it creates is known and ended.
	err = b.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandboxes", In: body, Out: &created, Finish: apihttp.CreateFinish})
	if err != nil {
		return nil, fmt.Errorf("starting a sandbox from %s: %w", body.TemplateID, err)
	}
	if created.SandboxID == "" || created.SandboxID != url.PathEscape(created.SandboxID) || created.SandboxID == "." || created.SandboxID == ".." {
		return nil, fmt.Errorf("%w: E2B answered POST /sandboxes with sandbox id %q, which the provider cannot end", builders.ErrBadAnswer, created.SandboxID)
	}
	return &sandbox{builder: b, id: created.SandboxID, workdir: req.Workdir, envd: b.envd.envdFor(created, req.User)}, nil
}

// exactBuild is the reference that starts exactly one build: "<template>:<build id>", from the
// template and the build id, or from a build given as that whole reference (a build_ref's value).
func exactBuild(templateID, build string) (string, error) {
	if i := strings.LastIndex(build, ":"); i >= 0 && (templateID == "" || aliasOf(build[:i]) == aliasOf(templateID)) {
		templateID, build = build[:i], build[i+1:]
	}
	if templateID == "" || !isBuildID(build) {
		return "", fmt.Errorf("e2b: %q of template %q is not a build id: a check starts exactly one build", build, templateID)
	}
	return reference(templateID, build), nil
}

// lifetimeSeconds is d in whole seconds, rounded up (E2B takes seconds); the SDKs' default when unset.
func lifetimeSeconds(d time.Duration) int32 {
	if d <= 0 {
		d = defaultSandboxLifetime
	}
	return int32(min(math.Ceil(d.Seconds()), math.MaxInt32))
}

// sandbox is a started E2B sandbox.
type sandbox struct {
	builder *Builder
	id      string
	workdir string // the cwd of every command, "" for the template's
	envd    envd
}

func (s *sandbox) ID() string { return s.id }

// Run runs command as the SDK's commands.run does: envd's process.Process/Start with
// `/bin/bash -l -c <command>` and stdin closed, asking envd for keepalives (Keepalive-Ping-Interval,
// 50 s as the SDK) so that a proxy does not end a quiet command's stream. It keeps the tail of
// stdout and stderr as they arrive and the exit code of the end event. A stream that ends without
// one (the context's deadline, envd gone) is an error.
func (s *sandbox) Run(ctx context.Context, command string) (builders.CommandOutcome, error) {
	process := &envdprocess.ProcessConfig{Cmd: "/bin/bash", Args: []string{"-l", "-c", command}}
	if s.workdir != "" {
		process.Cwd = &s.workdir
	}
	req := connect.NewRequest(&envdprocess.StartRequest{Process: process, Stdin: proto.Bool(false)})
	for name, values := range s.envd.header {
		req.Header()[name] = values
	}
	req.Header().Set("Keepalive-Ping-Interval", "50")
	stream, err := s.envd.process.Start(ctx, req)
	if err != nil {
		return builders.CommandOutcome{}, s.envdError(ctx, err)
	}
	defer func() { _ = stream.Close() }()
	out := &builders.TailBuffer{Max: builders.MaxCheckOutputBytes}
	var end *envdprocess.ProcessEvent_EndEvent
	for stream.Receive() {
		switch event := stream.Msg().GetEvent().GetEvent().(type) {
		case *envdprocess.ProcessEvent_Data:
			_, _ = out.Write(event.Data.GetStdout())
			_, _ = out.Write(event.Data.GetStderr())
		case *envdprocess.ProcessEvent_End:
			end = event.End
		}
	}
	if err := stream.Err(); err != nil {
		return builders.CommandOutcome{}, s.envdError(ctx, err)
	}
	if end == nil {
		return builders.CommandOutcome{}, fmt.Errorf("%w: envd of sandbox %s ended the command's stream without its end", builders.ErrBadAnswer, s.id)
	}
	return builders.CommandOutcome{ExitCode: int(end.GetExitCode()), Output: bytes.Clone(out.Bytes())}, nil
}

// envdError says which sandbox failed to run a command: the context's own error when it ended
// (the check's timeout, an interrupt), so callers can tell a hanging command from a broken envd.
// envd may report the deadline first: the client sends it as Connect-Timeout-Ms.
func (s *sandbox) envdError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		err = context.Cause(ctx)
	case connect.CodeOf(err) == connect.CodeDeadlineExceeded:
		err = context.DeadlineExceeded
	}
	return fmt.Errorf("running a command in sandbox %s: %w", s.id, err)
}

// Close kills the sandbox (DELETE /sandboxes/{id}); one already gone (killed, timed out) answers
// 404, which is not an error. It runs on for a while after ctx ends: it is what an interrupted
// check does last.
func (s *sandbox) Close(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
	defer cancel()
	err := s.builder.api.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/sandboxes/" + url.PathEscape(s.id)})
	if err == nil || apihttp.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("ending sandbox %s: %w", s.id, err)
}
