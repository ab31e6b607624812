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

// sdkCall is one call on an Image: Method is Image.ts's name, Args its arguments as JSON.
type sdkCall struct {
	Method string `json:"method"`
	Args   []any  `json:"args"`
}

// pipOptions is Image.ts's PipInstallOptions, the one field used here.
type pipOptions struct {
	ExtraOptions string `json:"extraOptions,omitempty"`
}

// imageCalls are the Image calls that build spec on image: Image.base(image), then packages,
// then each step, then the start command as entrypoint.
func imageCalls(image string, spec builders.TemplateSpec) []sdkCall {
	calls := []sdkCall{{Method: "base", Args: []any{image}}}
	user := "root" // who the steps run as so far
	as := func(who string, c ...sdkCall) {
		who = cmp.Or(who, user)
		if who == user {
			calls = append(calls, c...)
			return
		}
		calls = append(calls, dockerfileCommand("USER "+who))
		calls = append(calls, c...)
		calls = append(calls, dockerfileCommand("USER "+user))
	}
	run := func(command string) sdkCall { return sdkCall{Method: "runCommands", Args: []any{command}} }
	for _, step := range spec.BuildSteps() {
		s := step.BuildStep
		switch s.Kind() {
		case builders.StepPip:
			if s.Pip.IsGlobal() {
				as("root", sdkCall{Method: "pipInstall", Args: []any{s.Pip.Packages}})
			} else {
				as("", sdkCall{Method: "pipInstall", Args: []any{s.Pip.Packages, pipOptions{ExtraOptions: "--user"}}})
			}
		case builders.StepRun:
			as(s.Run.User, run(s.Run.Command))
		case builders.StepApt:
			as("root", run(s.Apt.Command()))
		case builders.StepNpm:
			if s.Npm.Global {
				as("root", run(s.Npm.Command()))
			} else {
				as("", run(s.Npm.Command()))
			}
		case builders.StepGitClone:
			as(s.GitClone.User, run(s.GitClone.Command()))
		case builders.StepEnv:
			env := map[string]string{}
			maps.Copy(env, s.Env)
			calls = append(calls, sdkCall{Method: "env", Args: []any{env}})
		case builders.StepWorkdir:
			calls = append(calls, sdkCall{Method: "workdir", Args: []any{*s.Workdir}})
		case builders.StepUser: // created when missing, as E2B's user step
			name := *s.User
			as("root", run(createUserCommand(name)))
			calls = append(calls, dockerfileCommand("USER "+name))
			user = name
		}
	}
	if entrypoint := startEntrypoint(spec); entrypoint != nil {
		calls = append(calls, sdkCall{Method: "entrypoint", Args: []any{entrypoint}})
	}
	return calls
}

func dockerfileCommand(line string) sdkCall {
	return sdkCall{Method: "dockerfileCommands", Args: []any{[]string{line}}}
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

// render writes the Dockerfile of calls as Image.ts does.
func render(calls []sdkCall) string {
	var b strings.Builder
	for _, c := range calls {
		switch c.Method {
		case "base": // Image.base: FROM
			fmt.Fprintf(&b, "FROM %s\n", c.Args[0])
		case "pipInstall": // RUN python -m pip install <sorted, quoted><extra args>
			pkgs := slices.Sorted(slices.Values(c.Args[0].([]string)))
			extra := ""
			if len(c.Args) > 1 {
				if opts := c.Args[1].(pipOptions); opts.ExtraOptions != "" {
					extra = " " + strings.TrimSpace(opts.ExtraOptions)
				}
			}
			fmt.Fprintf(&b, "RUN python -m pip install %s%s\n", shellQuoteAll(pkgs), extra)
		case "runCommands": // a string command as it is
			fmt.Fprintf(&b, "RUN %s\n", c.Args[0])
		case "env": // ENV key=quote([value]), in the object's (here: key) order
			env := c.Args[0].(map[string]string)
			for _, k := range slices.Sorted(maps.Keys(env)) {
				fmt.Fprintf(&b, "ENV %s=%s\n", k, shellQuote(env[k]))
			}
		case "workdir":
			fmt.Fprintf(&b, "WORKDIR %s\n", shellQuote(c.Args[0].(string)))
		case "dockerfileCommands":
			b.WriteString(strings.Join(c.Args[0].([]string), "\n") + "\n")
		case "entrypoint": // each argument in double quotes, unescaped
			args := c.Args[0].([]string)
			quoted := make([]string, len(args))
			for i, a := range args {
				quoted[i] = `"` + a + `"`
			}
			fmt.Fprintf(&b, "ENTRYPOINT [%s]\n", strings.Join(quoted, ", "))
		}
	}
	return b.String()
}

// dockerfile is what a build of spec on image sends as buildInfo.dockerfileContent.
func dockerfile(image string, spec builders.TemplateSpec) string {
	return render(imageCalls(image, spec))
}

// needsBuild tells whether spec is built from a Dockerfile; without packages or steps the image
// is pulled as it is (imageName), as the SDK creates a snapshot from an image name.
func needsBuild(spec builders.TemplateSpec) bool { return len(spec.BuildSteps()) > 0 }
