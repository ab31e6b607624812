package daytona

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// A spec with packages or steps is built from a Dockerfile (buildInfo.dockerfileContent) that is
// exactly what the SDK's Image builder (Image.ts) writes for the same calls: sdkImage records the
// calls, and render writes each as Image.ts does. imageCalls maps the spec onto those calls (the
// test replays them through the SDK itself). Steps run as root unless a user step or a step's
// own user says otherwise, as builders.StepsContext reads them: a Dockerfile switches with USER.

// sdkCall is one call on an Image: Method is Image.ts's name, Args its arguments as JSON (what
// the test replays through the SDK), and text what Image.ts adds to the Dockerfile for it.
type sdkCall struct {
	Method string `json:"method"`
	Args   []any  `json:"args"`
	text   string
}

// pipOptions is Image.ts's PipInstallOptions, the one field used here.
type pipOptions struct {
	ExtraOptions string `json:"extraOptions,omitempty"`
}

// The calls, each writing what Image.ts writes.

// base is Image.base: FROM.
func base(image string) sdkCall {
	return sdkCall{Method: "base", Args: []any{image}, text: "FROM " + image + "\n"}
}

// pipInstall: RUN python -m pip install <sorted, quoted packages><extra options>.
func pipInstall(packages []string, opts *pipOptions) sdkCall {
	c := sdkCall{Method: "pipInstall", Args: []any{packages}}
	extra := ""
	if opts != nil {
		c.Args = append(c.Args, *opts)
		if o := strings.TrimSpace(opts.ExtraOptions); o != "" {
			extra = " " + o
		}
	}
	c.text = "RUN python -m pip install " + shellQuoteAll(slices.Sorted(slices.Values(packages))) + extra + "\n"
	return c
}

// runCommands with one string command: RUN as it is.
func runCommands(command string) sdkCall {
	return sdkCall{Method: "runCommands", Args: []any{command}, text: "RUN " + command + "\n"}
}

// env: ENV key=quote([value]) per variable, in the object's order (here: by key).
func env(vars map[string]string) sdkCall {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		fmt.Fprintf(&b, "ENV %s=%s\n", k, shellQuote(vars[k]))
	}
	return sdkCall{Method: "env", Args: []any{vars}, text: b.String()}
}

// workdir: WORKDIR quote([dir]).
func workdir(dir string) sdkCall {
	return sdkCall{Method: "workdir", Args: []any{dir}, text: "WORKDIR " + shellQuote(dir) + "\n"}
}

// dockerfileCommands without a context directory: the lines as they are.
func dockerfileCommands(lines ...string) sdkCall {
	return sdkCall{Method: "dockerfileCommands", Args: []any{lines}, text: strings.Join(lines, "\n") + "\n"}
}

// entrypoint: ENTRYPOINT with each argument in double quotes, unescaped.
func entrypoint(args []string) sdkCall {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = `"` + a + `"`
	}
	return sdkCall{Method: "entrypoint", Args: []any{args}, text: "ENTRYPOINT [" + strings.Join(quoted, ", ") + "]\n"}
}

// imageCalls are the Image calls that build spec on image: Image.base(image), then packages,
// then each step, then the start command as entrypoint.
func imageCalls(image string, spec builders.TemplateSpec, contexts map[int]stepContext) []sdkCall {
	calls := []sdkCall{base(image)}
	var stepsContext builders.StepsContext // where a file step's relative destination is, as E2B resolves it
	user := "root"                         // who the steps run as so far
	as := func(who string, c ...sdkCall) {
		who = cmp.Or(who, user)
		if who == user {
			calls = append(calls, c...)
			return
		}
		calls = append(calls, dockerfileCommands("USER "+who))
		calls = append(calls, c...)
		calls = append(calls, dockerfileCommands("USER "+user))
	}
	index := -1 // in spec.Steps
	for _, step := range spec.BuildSteps() {
		s := step.BuildStep
		if step.Field != "packages" {
			index++
		}
		switch s.Kind() {
		case builders.StepPip:
			if s.Pip.IsGlobal() {
				as("root", pipInstall(s.Pip.Packages, nil))
			} else {
				as("", pipInstall(s.Pip.Packages, &pipOptions{ExtraOptions: "--user"}))
			}
		case builders.StepRun:
			as(s.Run.User, runCommands(s.Run.Command))
		case builders.StepApt:
			as("root", runCommands(s.Apt.Command()))
		case builders.StepNpm:
			if s.Npm.Global {
				as("root", runCommands(s.Npm.Command()))
			} else {
				as("", runCommands(s.Npm.Command()))
			}
		case builders.StepGitClone:
			as(s.GitClone.User, runCommands(s.GitClone.Command()))
		case builders.StepEnv:
			calls = append(calls, env(s.Env))
		case builders.StepWorkdir:
			calls = append(calls, workdir(*s.Workdir))
		case builders.StepUser: // created when missing, as E2B's user step
			name := *s.User
			as("root", runCommands(createUserCommand(name)))
			calls = append(calls, dockerfileCommands("USER "+name))
			user = name
		case builders.StepFile: // COPY from the step's build context (build_context.go)
			calls = append(calls, dockerfileCommands(copyLine(contexts[index], cmp.Or(s.File.Owner, user), stepsContext)))
		}
		stepsContext.Apply(s)
	}
	if args := startEntrypoint(spec); args != nil {
		calls = append(calls, entrypoint(args))
	}
	return calls
}

// copyLine copies a file step's files to their destination, owned by owner (the step's, else the
// user the steps run as, as E2B places them).
func copyLine(c stepContext, owner string, at builders.StepsContext) string {
	line := "COPY "
	if owner != "root" {
		line += "--chown=" + owner + " "
	}
	return line + c.source() + " " + at.Resolve(c.step.Destination)
}

// createUserCommand creates a user unless it exists, with a home, as E2B's user step does.
func createUserCommand(name string) string {
	q := builders.ShellQuoteIfNeeded(name)
	return "id -u " + q + " >/dev/null 2>&1 || useradd -m " + q
}

// startEntrypoint is the snapshot's entrypoint for the spec's start command (nil: none set, the
// image's own runs).
func startEntrypoint(spec builders.TemplateSpec) []string {
	cmd, defaulted := spec.StartCommand("")
	if defaulted || cmd == "" {
		return nil
	}
	return []string{"/bin/sh", "-c", cmd}
}

// render writes the Dockerfile of calls.
func render(calls []sdkCall) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.text)
	}
	return b.String()
}

// dockerfile is what a build of spec on image sends as buildInfo.dockerfileContent.
func dockerfile(image string, spec builders.TemplateSpec, contexts map[int]stepContext) string {
	return render(imageCalls(image, spec, contexts))
}

// needsBuild tells whether spec is built from a Dockerfile; without packages or steps the image
// is pulled as it is (imageName), as the SDK creates a snapshot from an image name.
func needsBuild(spec builders.TemplateSpec) bool { return len(spec.BuildSteps()) > 0 }
