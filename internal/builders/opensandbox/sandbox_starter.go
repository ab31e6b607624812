package opensandbox

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

var _ builders.SandboxStarter = (*Builder)(nil) // Backend.Checks

// restoreSandboxRequest is CreateSandboxRequest with a snapshotId instead of an image: what a
// consumer sends to start a sandbox from a template. A snapshot keeps files only, so the consumer
// passes the template's sandbox_entrypoint and sandbox_env (services/snapshot_restore.py runs
// `tail -f /dev/null` without an entrypoint).
type restoreSandboxRequest struct {
	SnapshotID     string            `json:"snapshotId"`
	Entrypoint     []string          `json:"entrypoint,omitempty"`
	ResourceLimits map[string]string `json:"resourceLimits"`
	Env            map[string]string `json:"env,omitempty"`
	Metadata       map[string]string `json:"metadata,omitempty"`
	Timeout        int               `json:"timeout"`
}

// StartSandbox first deletes the check sandboxes of the template that a run which died on this
// host left (as Build does its builder sandboxes), then restores a sandbox from snapshot req.Build (an id: the provider resolves the
// template's name to its newest Ready snapshot, as consumers do) with the template's entrypoint,
// environment and labels, and a timeout of req.Lifetime (at least the API's minimum, at most the
// server's cap), so a sandbox nobody deletes still ends. Its commands run through execd as the
// template's user in its working directory, which the snapshot does not keep.
func (b *Builder) StartSandbox(ctx context.Context, req builders.SandboxRequest) (builders.Sandbox, error) {
	timeout := max(int(req.Lifetime/time.Second), minSandboxTimeout)
	if b.maxSandboxTimeout > 0 {
		timeout = min(timeout, b.maxSandboxTimeout)
	}
	b.deleteDeadSandboxes(ctx, builders.CheckRole, req.TemplateID, "check sandbox", "check", func(string, ...any) {}) // best effort
	var created sandbox
	err := b.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/sandboxes", Out: &created, Finish: apihttp.CreateFinish,
		In: restoreSandboxRequest{SnapshotID: req.Build, Entrypoint: req.Entrypoint, ResourceLimits: DefaultResourceLimits,
			Env: req.Env, Metadata: checkMetadata(req), Timeout: timeout}})
	if err == nil {
		err = createdID("POST /sandboxes", "sandbox", created.ID)
	}
	if err != nil {
		return nil, builders.AtStage(builders.StageCheck, fmt.Errorf("restoring a sandbox from snapshot %s: %w%s", req.Build, err, timeoutHint(err)))
	}
	sb := &checkSandbox{b: b, id: created.ID, workdir: req.Workdir}
	if err := sb.ready(ctx, req); err != nil {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = sb.Close(closeCtx) // the caller never gets a sandbox it could end
		return nil, err
	}
	return sb, nil
}

// checkMetadata is req.Labels and what tells, on a later run, whether the run that made the
// sandbox died (builder_sandboxes.go): this host, this process, the build checked.
func checkMetadata(req builders.SandboxRequest) map[string]string {
	md := map[string]string{metaHost: thisHost, metaPID: strconv.Itoa(os.Getpid())}
	if len(req.Build) <= 63 {
		md[metaBuild] = req.Build
	}
	maps.Copy(md, req.Labels)
	return md
}

// checkSandbox is a sandbox a check started.
type checkSandbox struct {
	b       *Builder
	id      string
	ex      *execd
	workdir string
	user    *userIDs // nil: execd's own (root)
	name    string
}

func (s *checkSandbox) ID() string { return s.id }

// ready waits until the sandbox runs and its execd answers, and looks the template's user up.
// A sandbox that ends on its own ended because its entrypoint (the template's start command) did:
// that is the first thing a check proves.
func (s *checkSandbox) ready(ctx context.Context, req builders.SandboxRequest) error {
	alive := func() error { return s.running(ctx, req.Entrypoint) }
	if err := alive(); err != nil {
		return err
	}
	ex, err := s.b.api.execd(ctx, s.id)
	if err != nil {
		return builders.AtStage(builders.StageCheck, fmt.Errorf("reaching execd of sandbox %s: %w", s.id, err))
	}
	s.ex = ex
	if err := ex.waitReady(ctx, s.b.pollInterval, alive); err != nil {
		return builders.AtStageIfBare(builders.StageCheck, err)
	}
	if req.User == "" || req.User == "root" {
		return nil
	}
	result, err := ex.run(ctx, runCommandRequest{Command: "getent passwd " + req.User}) // a name valid at plan time needs no quoting
	if err != nil {
		return builders.AtStage(builders.StageCheck, fmt.Errorf("looking up user %s: %w", req.User, err))
	}
	ids, ok := parsePasswd(result.Output)
	if result.Error != "" || !ok {
		return builders.AtStage(builders.StageCheck, fmt.Errorf("user %s (sandbox_user) does not exist in sandbox %s", req.User, s.id))
	}
	s.user, s.name = &ids, req.User
	return nil
}

// running polls the sandbox until Running; one that failed or stopped is a CHECK failure.
func (s *checkSandbox) running(ctx context.Context, entrypoint []string) error {
	for {
		got, err := s.b.api.getSandbox(ctx, s.id)
		if err != nil {
			return builders.AtStage(builders.StageCheck, fmt.Errorf("waiting for sandbox %s: %w", s.id, err))
		}
		switch got.Status.State {
		case stateRunning:
			return nil
		case stateFailed, stateStopping, stateTerminated:
			started := "tail -f /dev/null (the server's default)"
			if len(entrypoint) > 0 {
				started = strings.Join(entrypoint, " ")
			}
			return builders.AtStage(builders.StageCheck, fmt.Errorf("sandbox %s ended (%s%s): its entrypoint %s (sandbox_entrypoint) ended",
				s.id, got.Status.State, describe(got.Status), started))
		}
		if err := apihttp.Sleep(ctx, s.b.pollInterval); err != nil {
			return builders.AtStage(builders.StageCheck, fmt.Errorf("waiting for sandbox %s to run: %w", s.id, err))
		}
	}
}

// Run runs command through execd's shell as the template's user, in its working directory, with
// the user's HOME; the environment is the sandbox's (create's env), which execd's commands inherit.
func (s *checkSandbox) Run(ctx context.Context, command string) (builders.CommandOutcome, error) {
	req := runCommandRequest{Command: command, Cwd: s.workdir, Envs: map[string]string{}}
	if s.user != nil { // execd runs as root; it sets ids, not the user's environment
		req.UID, req.GID = &s.user.uid, &s.user.gid
		req.Envs["HOME"], req.Envs["USER"], req.Envs["LOGNAME"] = s.user.home, s.name, s.name
	}
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = max(time.Until(deadline).Milliseconds(), 1) // execd kills it at our deadline
	}
	result, err := s.ex.run(ctx, req)
	if err != nil {
		return builders.CommandOutcome{}, err
	}
	out := &builders.TailBuffer{Max: builders.MaxCheckOutputBytes}
	for _, line := range result.Output { // as the consumer sees it: stderr unlabelled
		_, _ = out.Write([]byte(strings.TrimPrefix(line, stderrLabel) + "\n"))
	}
	code := 0
	if result.Error != "" {
		code = result.ExitCode
		if code < 0 { // execd's error without an exit code: the command did not run to an exit
			return builders.CommandOutcome{}, fmt.Errorf("execd: %s", result.Error)
		}
	}
	return builders.CommandOutcome{ExitCode: code, Output: out.Bytes()}, nil
}

// Close deletes the sandbox; one already gone is fine.
func (s *checkSandbox) Close(ctx context.Context) error {
	if err := s.b.api.deleteSandbox(ctx, s.id); err != nil && !apihttp.IsNotFound(err) {
		return err
	}
	return nil
}
