package daytona

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// Sandbox states a check reads (SandboxState in openapi-specs/api.json).
const (
	sandboxStarted     = "started"
	sandboxError       = "error"
	sandboxBuildFailed = "build_failed"
	sandboxDestroyed   = "destroyed"
)

// StartSandbox starts a sandbox from the snapshot req.Build names, as a consumer does
// (Daytona.create({snapshot}): POST /sandbox), and waits until it has started. Its ttlMinutes
// bounds it when nobody ends it.
func (b *Builder) StartSandbox(ctx context.Context, req builders.SandboxRequest) (builders.Sandbox, error) {
	body := createSandbox{Snapshot: req.Build, Env: req.Env, Labels: req.Labels, Target: b.cfg.Target, User: req.User}
	if body.Env == nil {
		body.Env = map[string]string{}
	}
	if req.Lifetime > 0 {
		body.TTLMinutes = int(math.Ceil(req.Lifetime.Minutes()))
	}
	var created sandbox
	err := b.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandbox", In: body, Out: &created,
		Retry: apihttp.RetryOnly429, Finish: apihttp.CreateFinish})
	if err != nil {
		return nil, builders.AtStageIfBare(builders.StageTemplateCreate, fmt.Errorf("starting a sandbox from %s: %w", req.Build, err))
	}
	sb := &checkSandbox{b: b, id: created.ID, workdir: req.Workdir}
	started, err := b.waitStarted(ctx, created)
	if err != nil {
		_ = sb.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	if sb.toolbox, err = b.toolbox(ctx, started); err != nil {
		_ = sb.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return sb, nil
}

func (b *Builder) waitStarted(ctx context.Context, sb sandbox) (sandbox, error) {
	for {
		switch sb.State {
		case sandboxStarted:
			return sb, nil
		case sandboxError, sandboxBuildFailed, sandboxDestroyed:
			return sandbox{}, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("sandbox %s is %s: %s", sb.ID, sb.State, sb.ErrorReason))
		}
		if err := apihttp.Sleep(ctx, b.pollInterval); err != nil {
			return sandbox{}, fmt.Errorf("waiting for sandbox %s to start: %w", sb.ID, err)
		}
		if err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/sandbox/" + url.PathEscape(sb.ID), Out: &sb}); err != nil {
			return sandbox{}, builders.AtStageIfBare(builders.StageTemplateCreate, fmt.Errorf("reading sandbox %s: %w", sb.ID, err))
		}
	}
}

// toolbox is the client of the sandbox's toolbox: <toolboxProxyUrl>/<sandbox id> (Sandbox.ts
// processSandboxDto), asked for when the sandbox does not carry it (GET
// /sandbox/{id}/toolbox-proxy-url, as the SDK's ensureToolboxProxyUrl does).
func (b *Builder) toolbox(ctx context.Context, sb sandbox) (*apihttp.Client, error) {
	proxy := sb.ToolboxProxyURL
	if proxy == "" {
		var got struct {
			URL string `json:"url"`
		}
		if err := b.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/sandbox/" + url.PathEscape(sb.ID) + "/toolbox-proxy-url", Out: &got}); err != nil {
			return nil, builders.AtStageIfBare(builders.StageTemplateCreate, fmt.Errorf("asking for sandbox %s's toolbox: %w", sb.ID, err))
		}
		proxy = got.URL
	}
	base, err := url.Parse(strings.TrimRight(proxy, "/") + "/" + url.PathEscape(sb.ID))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, builders.AtStage(builders.StageTemplateCreate, fmt.Errorf("sandbox %s: %q is no toolbox URL: %w", sb.ID, proxy, builders.ErrBadAnswer))
	}
	tb := *b.api.Client
	tb.BaseURL = base
	tb.Retry = apihttp.RetryPolicy{MaxAttempts: 1} // a command is not run twice
	return &tb, nil
}

// checkSandbox is a started sandbox a check runs commands in.
type checkSandbox struct {
	b       *Builder
	id      string
	workdir string
	toolbox *apihttp.Client
}

func (s *checkSandbox) ID() string { return s.id }

// Run runs command through the toolbox's process execute call (Process.ts executeCommand), which
// pipes it into the sandbox's shell and answers its exit code and its output, stdout and stderr
// together (daemon toolbox/process/execute.go). Its timeout is what ctx leaves: the toolbox's own
// default is 10 seconds (toolbox.json ExecuteRequest.timeout).
func (s *checkSandbox) Run(ctx context.Context, command string) (builders.CommandOutcome, error) {
	req := executeRequest{Command: command, Cwd: s.workdir}
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = max(1, int(time.Until(deadline).Seconds()))
	} else {
		req.Timeout = int(time.Hour.Seconds())
	}
	var got executeResponse
	if err := s.toolbox.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/process/execute", In: req, Out: &got}); err != nil {
		return builders.CommandOutcome{}, fmt.Errorf("running a command in sandbox %s: %w", s.id, err)
	}
	code := got.ExitCode
	if code == nil {
		code = got.Code
	}
	if code == nil {
		return builders.CommandOutcome{}, fmt.Errorf("sandbox %s: the toolbox answered no exit code: %w", s.id, builders.ErrBadAnswer)
	}
	tail := builders.TailBuffer{Max: builders.MaxCheckOutputBytes}
	_, _ = tail.Write([]byte(got.Result))
	return builders.CommandOutcome{ExitCode: *code, Output: tail.Bytes()}, nil
}

// Close deletes the sandbox; one already gone is no error.
func (s *checkSandbox) Close(ctx context.Context) error {
	err := s.b.api.Do(ctx, apihttp.Request{Method: http.MethodDelete, Path: "/sandbox/" + url.PathEscape(s.id)})
	if apihttp.IsNotFound(err) {
		return nil
	}
	return err
}
