package opensandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// The start command starts after the steps, as E2B starts its own in finalize, after the steps
// (orchestrator/pkg/template/build/phases/finalize/builder.go), and as consumers start it: the
// command of SandboxEntrypoint, with sandbox_env. Given as the builder sandbox's entrypoint from
// its creation instead, it would start before the steps installed what it runs, and its end would
// end the sandbox (OSB components/execd/bootstrap.sh). So the builder sandbox runs
// NeutralEntrypoint, and the start command is started through execd, detached (background, OSB
// execd/pkg/runtime/command.go runBackgroundCommand), as root with the steps' environment; then the
// ready command is waited for, and the snapshot taken while it runs. A snapshot keeps the
// filesystem only: what the start command wrote by then is in it, its process is not.

// startsSomething tells whether the spec has a start command to start (start_cmd = "" has none).
func startsSomething(spec builders.TemplateSpec) bool {
	return !slices.Equal(SandboxEntrypoint(spec.StartCmd), NeutralEntrypoint)
}

// startedCommand is the start command running detached in the builder sandbox.
type startedCommand struct {
	ex        *execd
	id        string // execd's command id
	command   string // as sent: the entrypoint as a shell command
	startCmd  string // start_cmd, for the hint ("" when defaulted)
	defaulted bool
	logs      *buildLog
}

// start starts the spec's start command, or returns nil when it has none.
func (r *stepRunner) start(ctx context.Context, spec builders.TemplateSpec) (*startedCommand, error) {
	if !startsSomething(spec) {
		return nil, nil
	}
	startCmd, defaulted := spec.StartCommand("")
	argv := SandboxEntrypoint(spec.StartCmd)
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = builders.ShellQuoteIfNeeded(a)
	}
	c := &startedCommand{ex: r.ex, command: strings.Join(quoted, " "), startCmd: startCmd, defaulted: defaulted, logs: r.logs}
	r.logs.Add("$ " + c.command + " &")
	id, err := r.ex.startDetached(ctx, runCommandRequest{Command: c.command, Envs: r.state.Env, Background: true})
	if err != nil {
		return nil, fmt.Errorf("starting the start command: %w", err)
	}
	c.id = id
	return c, c.running(ctx)
}

// running fails when the start command has ended: its exit code, why it must not end, and its
// last output. A nil c (no start command) is always fine.
func (c *startedCommand) running(ctx context.Context) error {
	if c == nil {
		return nil
	}
	st, err := c.ex.commandStatus(ctx, c.id)
	if err != nil {
		return fmt.Errorf("asking execd about the start command: %w", err)
	}
	if st.Running {
		return nil
	}
	code := -1
	if st.ExitCode != nil {
		code = *st.ExitCode
	}
	output, _ := c.ex.commandLogs(ctx, c.id) // best effort: the exit code says enough without it
	msg := fmt.Sprintf("the start command `%s` ended with exit code %d", builders.Scrub(c.command, c.logs.Secrets...), code)
	if code == exitCodeNotFound {
		msg += " (the shell's \"command not found\")"
	}
	msg += ": " + endedHint(c.startCmd, c.defaulted)
	lines := scrubbedOutput(output, c.logs.Secrets)
	if len(lines) > 0 {
		msg += "; its last output:"
	}
	for _, line := range lines[max(0, len(lines)-outputTailLines):] {
		msg += "\n  " + line
	}
	return errors.New(msg)
}

// startDetached sends a background command and returns its id: the init event is all execd's
// stream carries for one (OSB execd/pkg/web/controller/command.go).
func (e *execd) startDetached(ctx context.Context, req runCommandRequest) (string, error) {
	var id string
	err := e.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/command", In: req,
		Read: func(stream io.Reader) error {
			return eachEvent(stream, func(ev streamEvent) {
				if ev.Type == "init" && id == "" {
					id = ev.Text
				}
			})
		}})
	if err == nil && id == "" {
		err = errors.New("opensandbox: execd's stream for a background command carried no command id")
	}
	return id, err
}

// commandStatus is execd's CommandStatusResponse, the fields used here.
type commandStatus struct {
	Running  bool `json:"running"`
	ExitCode *int `json:"exit_code"`
}

func (e *execd) commandStatus(ctx context.Context, id string) (commandStatus, error) {
	var st commandStatus
	err := e.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/command/status/" + id, Out: &st})
	return st, err
}

// commandLogs is a background command's output so far (stdout and stderr, combined), its last
// maxCommandOutputLines lines.
func (e *execd) commandLogs(ctx context.Context, id string) ([]string, error) {
	var result commandResult
	err := e.api.Do(ctx, apihttp.Request{Method: http.MethodGet, Path: "/command/" + id + "/logs",
		Read: func(body io.Reader) error {
			b, err := io.ReadAll(io.LimitReader(body, 1<<20))
			for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
				if line != "" {
					result.keep(line)
				}
			}
			return err
		}})
	return result.Output, err
}
