package lifecycle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// cliDeadline bounds one CLI run. Every timeout in a sequence is seconds long, so a run that takes
// longer is stuck: it is interrupted, then killed, and reported.
const cliDeadline = 2 * time.Minute

// lockFile is the local backend's lock record; it outlives the CLI only when the CLI was killed.
const lockFile = ".terraform.tfstate.lock.info"

// workdir is a CLI working directory with the locally built provider installed as a dev override.
type workdir struct {
	name, cli, dir string
	env            []string
}

func newWorkdir(name, cli, dir, providerDir string, emu *emulator) (*workdir, error) {
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"hashicorp/sandbox\" = %q\n  }\n  direct {}\n}\n", providerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	for file, content := range map[string]string{"dev.tfrc": rc, "main.tf": mainTF} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o600); err != nil {
			return nil, err
		}
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(dir, "dev.tfrc"), "CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1", "TF_LOG=", "AWS_EC2_METADATA_DISABLED=true")
	return &workdir{name: name, cli: cli, dir: dir, env: append(env, emu.env()...)}, nil
}

func (w *workdir) write(c config) error {
	return os.WriteFile(filepath.Join(w.dir, "terraform.tfvars.json"), c.tfvars(), 0o600)
}

// run is one finished CLI run.
type run struct {
	dir    string
	args   []string
	code   int
	output string
}

// process is a CLI run in progress, in its own process group (the provider plugin is in it too).
type process struct {
	cmd  *exec.Cmd
	out  *bytes.Buffer
	done chan struct{}
}

func (w *workdir) start(args ...string) (*process, error) {
	cmd := exec.Command(w.cli, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second // a plugin still holding the output must not hold up the wait
	out := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, out: out, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// signal sends sig to the run's process group, CLI and plugin: what Ctrl-C in a terminal
// (SIGINT) or a cancelled CI job (SIGKILL) does.
func (p *process) signal(sig syscall.Signal) { _ = syscall.Kill(-p.cmd.Process.Pid, sig) }

// wait waits for the run to end; past cliDeadline it interrupts it, then kills it, and says so.
func (p *process) wait() (run, error) {
	var stuck error
	select {
	case <-p.done:
	case <-time.After(cliDeadline):
		stuck = fmt.Errorf("the CLI did not finish within %s", cliDeadline)
		p.signal(syscall.SIGINT)
		select {
		case <-p.done:
		case <-time.After(30 * time.Second):
			stuck = fmt.Errorf("%w, nor within 30s of SIGINT", stuck)
			p.signal(syscall.SIGKILL)
			<-p.done
		}
	}
	p.signal(syscall.SIGKILL) // a plugin whose CLI is gone must not take its build further
	return run{dir: filepath.Base(p.cmd.Dir), args: p.cmd.Args[1:], code: p.cmd.ProcessState.ExitCode(), output: p.out.String()}, stuck
}

// run runs the CLI to its end. A plugin that did not start in time (an overloaded machine: the
// CLI gives it a minute) is the machine's failure, not the provider's: the run is tried again.
func (w *workdir) run(args ...string) (run, error) {
	for attempt := 1; ; attempt++ {
		p, err := w.start(args...)
		if err != nil {
			return run{dir: w.name, args: args}, err
		}
		r, err := p.wait()
		if err != nil || attempt == 3 || !strings.Contains(r.output, "timeout while waiting for plugin to start") {
			return r, err
		}
	}
}

func (w *workdir) apply() (run, error) {
	return w.run("apply", "-auto-approve", "-input=false", "-no-color")
}

// forceUnlock removes a lock a killed CLI left, as `force-unlock` does: by the lock's own id.
func (w *workdir) forceUnlock() (*run, error) {
	b, err := os.ReadFile(filepath.Join(w.dir, lockFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	var lock struct{ ID string }
	if err == nil {
		err = json.Unmarshal(b, &lock)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", lockFile, err)
	}
	r, err := w.run("force-unlock", "-force", lock.ID)
	return &r, err
}

func (w *workdir) lockLeft() bool {
	_, err := os.Stat(filepath.Join(w.dir, lockFile))
	return err == nil
}

// instance is one resource instance of a state file.
type instance struct {
	Key        string
	Tainted    bool
	Attributes map[string]any
}

func (i instance) status() string { s, _ := i.Attributes["status"].(string); return s }

func (i instance) template() template {
	var t template
	b, _ := json.Marshal(i.Attributes)
	_ = json.Unmarshal(b, &t)
	return t
}

// readState parses the templates of terraform.tfstate: nil when there is none yet, an error when
// it does not parse.
func (w *workdir) readState() (map[string]instance, error) { return w.readStateOf("sandbox_template") }

// readStateOf parses the instances of one resource type of terraform.tfstate, by for_each key.
func (w *workdir) readStateOf(resourceType string) (map[string]instance, error) {
	b, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s struct {
		Version   *int `json:"version"`
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				IndexKey   string         `json:"index_key"`
				Status     string         `json:"status"`
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Version == nil {
		return nil, fmt.Errorf("terraform.tfstate (%d bytes) is not a state file: %v", len(b), err)
	}
	out := map[string]instance{}
	for _, r := range s.Resources {
		if r.Type != resourceType {
			continue
		}
		for _, i := range r.Instances {
			out[i.IndexKey] = instance{Key: i.IndexKey, Tainted: i.Status == "tainted", Attributes: i.Attributes}
		}
	}
	return out, nil
}

// plan is a `plan -detailed-exitcode` and what it read and proposes.
type plan struct {
	run
	// prior is the templates' state as the plan refreshed it, by for_each key.
	prior map[string]instance
	// changes are the keys of the templates the plan would change.
	changes map[string][]string
}

func (w *workdir) plan() (plan, []run, error) {
	p := plan{prior: map[string]instance{}, changes: map[string][]string{}}
	r, err := w.run("plan", "-detailed-exitcode", "-input=false", "-no-color", "-out=lifecycle.tfplan")
	p.run = r
	runs := []run{r}
	if err != nil || (r.code != 0 && r.code != 2) {
		return p, runs, err
	}
	shown, err := w.run("show", "-json", "lifecycle.tfplan")
	runs = append(runs, run{dir: shown.dir, args: shown.args, code: shown.code}) // the JSON itself is not worth printing
	if err != nil || shown.code != 0 {
		return p, runs, fmt.Errorf("show -json: %v\n%s", err, shown.output)
	}
	var doc struct {
		Prior struct {
			Values struct {
				RootModule struct {
					Resources []struct {
						Type   string         `json:"type"`
						Index  string         `json:"index"`
						Values map[string]any `json:"values"`
					} `json:"resources"`
				} `json:"root_module"`
			} `json:"values"`
		} `json:"prior_state"`
		Changes []struct {
			Type   string `json:"type"`
			Index  string `json:"index"`
			Change struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(shown.output), &doc); err != nil {
		return p, runs, fmt.Errorf("show -json: %w", err)
	}
	for _, r := range doc.Prior.Values.RootModule.Resources {
		if r.Type == "sandbox_template" {
			p.prior[r.Index] = instance{Key: r.Index, Attributes: r.Values}
		}
	}
	for _, c := range doc.Changes {
		if c.Type == "sandbox_template" && (len(c.Change.Actions) != 1 || c.Change.Actions[0] != "no-op") {
			p.changes[c.Index] = c.Change.Actions
		}
	}
	return p, runs, nil
}
