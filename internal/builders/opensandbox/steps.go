package opensandbox

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// A build's steps run in the builder sandbox through execd, as E2B's orchestrator runs them in its
// build sandbox (orchestrator/pkg/template/build/commands): each command with the working
// directory, environment and user the steps before it set (metadata.Context), files through
// execd's upload call. A snapshot keeps none of that context, so the provider hands it to consumers
// (sandbox_env, sandbox_workdir, sandbox_user: builders.StepsContext).

// readyTimeout is E2B's for its ready command (phases/finalize/ready.go); it retries every 2 s,
// DefaultPollInterval.
const readyTimeout = 10 * time.Minute

// stepRunner runs one build's steps in its builder sandbox.
type stepRunner struct {
	ex    *execd
	logs  *buildLog
	state builders.StepsContext
	ids   map[string]userIDs // users resolved so far
	poll  time.Duration
}

// userIDs is a user's /etc/passwd entry: what execd needs to run a command as the user (uid,
// gid) and what the user's programs expect in their environment (HOME).
type userIDs struct {
	uid, gid uint32
	home     string
}

// runSteps runs the spec's steps, then starts its start command (start_command.go) and waits for
// its ready command, if it has them; the start command must still run at the end.
func (b *Builder) runSteps(ctx context.Context, ex *execd, spec builders.TemplateSpec, logs *buildLog) error {
	r := &stepRunner{ex: ex, logs: logs, ids: map[string]userIDs{"root": {}}, poll: b.pollInterval}
	for _, step := range spec.BuildSteps() {
		if err := r.run(ctx, step.BuildStep); err != nil {
			return builders.AtStage(builders.StageTemplateBuild, fmt.Errorf("%s: %w", step.Describe(), err))
		}
	}
	started, err := r.start(ctx, spec)
	if err != nil {
		return builders.AtStage(builders.StageTemplateBuild, err)
	}
	if ready := spec.ReadyCommand(); ready != "" {
		if err := r.waitReady(ctx, ready, started.running); err != nil {
			return builders.AtStage(builders.StageTemplateBuild, err)
		}
	}
	if err := started.running(ctx); err != nil {
		return builders.AtStage(builders.StageTemplateBuild, err)
	}
	return nil
}

func (r *stepRunner) run(ctx context.Context, s builders.BuildStep) error {
	switch s.Kind() {
	case builders.StepRun:
		return r.command(ctx, s.Run.Command, s.Run.User, nil)
	case builders.StepApt:
		return r.command(ctx, s.Apt.Command(), "root", nil)
	case builders.StepPip:
		req := installCommand(s.Pip.Packages, !s.Pip.IsGlobal())
		user := "root"
		if !s.Pip.IsGlobal() {
			user = ""
		}
		return r.command(ctx, req.Command, user, req.Envs)
	case builders.StepNpm:
		user := ""
		if s.Npm.Global {
			user = "root"
		}
		return r.command(ctx, s.Npm.Command(), user, nil)
	case builders.StepGitClone:
		return r.command(ctx, s.GitClone.Command(), s.GitClone.User, nil)
	case builders.StepEnv:
		r.state.Apply(s)
		return nil
	case builders.StepWorkdir:
		return r.workdir(ctx, s)
	case builders.StepUser:
		if _, err := r.user(ctx, *s.User, true); err != nil {
			return err
		}
		r.state.Apply(s)
		return nil
	case builders.StepFile:
		return r.placeFiles(ctx, *s.File)
	}
	return fmt.Errorf("a step of no known kind")
}

// command runs cmd as user ("" for the current one) in the current working directory with the
// environment set so far plus extra, and fails with its exit code and last output.
func (r *stepRunner) command(ctx context.Context, cmd, user string, extra map[string]string) error {
	result, err := r.exec(ctx, cmd, user, extra)
	if err != nil {
		return err
	}
	if result.Error != "" {
		return commandFailed(cmd, result, r.logs)
	}
	return nil
}

func (r *stepRunner) exec(ctx context.Context, cmd, user string, extra map[string]string) (commandResult, error) {
	if user == "" {
		user = r.state.User
	}
	req := runCommandRequest{Command: cmd, Cwd: r.state.Workdir, Envs: map[string]string{}}
	if user != "" && user != "root" { // execd runs as root; it sets ids, not the user's environment
		ids, err := r.user(ctx, user, false)
		if err != nil {
			return commandResult{}, err
		}
		req.UID, req.GID = &ids.uid, &ids.gid
		req.Envs["HOME"], req.Envs["USER"], req.Envs["LOGNAME"] = ids.home, user, user
	}
	maps.Copy(req.Envs, r.state.Env)
	maps.Copy(req.Envs, extra)
	if deadline, ok := ctx.Deadline(); ok {
		req.Timeout = max(time.Until(deadline).Milliseconds(), 1) // execd kills it at our deadline
	}
	r.logs.Add("$ " + cmd)
	result, err := r.ex.run(ctx, req)
	r.logs.output(result)
	return result, err
}

// user looks a user up in the image's /etc/passwd (getent, as root); create makes a missing one as
// E2B's USER step does (commands/user.go: useradd --create-home --shell /bin/bash).
func (r *stepRunner) user(ctx context.Context, name string, create bool) (userIDs, error) {
	if ids, ok := r.ids[name]; ok {
		return ids, nil
	}
	lookup := "getent passwd " + name // a name valid at plan time needs no quoting
	result, err := r.exec(ctx, lookup, "root", nil)
	if err == nil && result.Error != "" && create {
		if err = r.command(ctx, "useradd --create-home --shell /bin/bash "+name, "root", nil); err == nil {
			result, err = r.exec(ctx, lookup, "root", nil)
		}
	}
	switch {
	case err != nil:
		return userIDs{}, err
	case result.Error != "":
		return userIDs{}, fmt.Errorf("user %s does not exist in the image: add a user step that creates it before this step", name)
	}
	ids, ok := parsePasswd(result.Output)
	if !ok {
		return userIDs{}, fmt.Errorf("`%s` printed %q, not a passwd entry", lookup, result.Output)
	}
	r.ids[name] = ids
	return ids, nil
}

// parsePasswd reads "name:x:uid:gid:gecos:home:shell".
func parsePasswd(output []string) (userIDs, bool) {
	if len(output) == 0 {
		return userIDs{}, false
	}
	fields := strings.Split(strings.TrimSpace(output[0]), ":")
	if len(fields) < 7 {
		return userIDs{}, false
	}
	uid, errU := strconv.ParseUint(fields[2], 10, 32)
	gid, errG := strconv.ParseUint(fields[3], 10, 32)
	return userIDs{uid: uint32(uid), gid: uint32(gid), home: fields[5]}, errU == nil && errG == nil
}

// workdir makes the folder (owned by the current user, as E2B's WORKDIR chowns what it creates)
// and runs the next commands in it.
func (r *stepRunner) workdir(ctx context.Context, s builders.BuildStep) error {
	next := r.state
	next.Apply(s)
	owner := r.owner("")
	if err := r.ex.makeDir(ctx, next.Workdir, filePermission{Owner: owner.Owner, Group: owner.Group, Mode: 755}); err != nil {
		return fmt.Errorf("creating %s: %w", next.Workdir, err)
	}
	r.logs.Addf("workdir %s", next.Workdir)
	r.state = next
	return nil
}

// owner is the step's owner ("user" or "user:group"), else the current user, as execd names them.
func (r *stepRunner) owner(stepOwner string) filePermission {
	if stepOwner == "" {
		stepOwner = r.state.User
	}
	if stepOwner == "" {
		stepOwner = "root"
	}
	user, group, found := strings.Cut(stepOwner, ":")
	if !found {
		group = user
	}
	return filePermission{Owner: user, Group: group}
}

// placeFiles places a file step's files with E2B's copy semantics (commands/copy_script.sh): a file
// goes to the destination (into it, when it ends with "/"), a folder's contents are merged into the
// destination; the owner is the step's or the current user, the mode the step's or the file's own.
func (r *stepRunner) placeFiles(ctx context.Context, f builders.FileStep) error {
	files, err := f.Files()
	if err != nil {
		return err
	}
	target := r.state.Resolve(f.Destination)
	perm := r.owner(f.Owner)
	for _, e := range files.Entries {
		dest := strings.TrimSuffix(target, "/") + strings.TrimPrefix(e.Path, files.Src)
		if e.Path == files.Src && !e.IsDir() && strings.HasSuffix(target, "/") {
			dest = target + files.Src
		}
		perm.Mode = octalDigits(f.Mode, e.Mode)
		switch {
		case e.IsDir():
			err = r.ex.makeDir(ctx, dest, perm)
		case e.IsSymlink():
			err = r.command(ctx, "ln -sfn "+builders.ShellQuote(string(e.Inline))+" "+builders.ShellQuote(dest)+
				" && chown -h "+perm.Owner+":"+perm.Group+" "+builders.ShellQuote(dest), "root", nil)
		case e.IsRegular():
			err = r.ex.upload(ctx, dest, perm, e)
		}
		if err != nil {
			return fmt.Errorf("placing %s at %s: %w", e.Path, dest, err)
		}
	}
	r.logs.Addf("placed %d entries of %s at %s", len(files.Entries), files.Src, target)
	return nil
}

// octalDigits is a mode as execd takes it (0644 as 644): the step's, else the entry's permission bits.
func octalDigits(stepMode string, entryMode uint32) int {
	digits := strings.TrimLeft(stepMode, "0")
	if stepMode == "" {
		digits = strconv.FormatUint(uint64(entryMode&0o7777), 8)
	}
	n, _ := strconv.Atoi(digits)
	return n
}

// waitReady runs the ready command until it succeeds, every poll interval for at most
// readyTimeout, as E2B does before it snapshots a template (phases/finalize/ready.go). A command the
// image does not have (exit 127) can never succeed, nor can one whose start command ended
// (startRunning says so): either fails at once.
func (r *stepRunner) waitReady(ctx context.Context, ready string, startRunning func(context.Context) error) error {
	ctx, cancel := context.WithTimeoutCause(ctx, readyTimeout, errors.New("ready command timed out"))
	defer cancel()
	for {
		result, err := r.exec(ctx, ready, "", nil)
		switch {
		case err == nil && result.Error == "":
			r.logs.Add("ready: the ready command succeeded")
			return nil
		case err == nil && result.ExitCode == exitCodeNotFound:
			return fmt.Errorf("ready command: %w", commandFailed(ready, result, r.logs))
		case err != nil && ctx.Err() == nil:
			return fmt.Errorf("ready command: %w", err)
		}
		if err := startRunning(ctx); err != nil && ctx.Err() == nil {
			return err
		}
		if err := apihttp.Sleep(ctx, r.poll); err != nil {
			return fmt.Errorf("ready command `%s` did not succeed within %s (%w)", ready, readyTimeout, context.Cause(ctx))
		}
	}
}
