package builders

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Plan-time rules for steps. E2B's server puts some arguments into its own shell scripts
// unquoted (commands/user.go `useradd ... %s`, commands/workdir.go `target="%s"`) and the SDK
// joins apt packages unquoted (aptInstall), so what reaches a shell is checked here, where a
// mistake is a plan error on the step at fault instead of a failed build or a command run as
// root.
var (
	// userName is a POSIX-portable login name (useradd's default NAME_REGEX, without the trailing $).
	userName = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)
	// envName is a shell variable name.
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// aptPackage is a Debian package name (Debian policy 5.6.1), optionally :arch and =version.
	aptPackage = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+(?::[a-z0-9-]+)?(?:=[A-Za-z0-9.+:~_-]+)?$`)
	// fileMode is an octal permission, 3 or 4 digits.
	fileMode = regexp.MustCompile(`^[0-7]{3,4}$`)
)

// What a NUL does to a step. A newline is fine in both: E2B runs a RUN step as `/bin/bash -l -c
// <command>` (sandboxtools/command.go) and OpenSandbox's execd runs a command through bash, so a
// multi-line command is a script; E2B evaluates an ENV value as `printf "%s" "<value>"` in bash
// (commands/env.go), which keeps a newline inside the double quotes, and execd passes a request's
// envs to the process as they are. A NUL is carried by neither: arguments and environment
// entries reach execve as C strings, which end at the first NUL.
const (
	nulCommand = "E2B and OpenSandbox run the command with bash, whose argument is a C string that ends at the first one"
	nulEnv     = "a process's environment entries are C strings (NAME=value), which end at the first one"
)

// validateSteps checks every step, each problem on its own field ("steps[1].apt.packages[0]").
func (s TemplateSpec) validateSteps() FieldErrors {
	var errs FieldErrors
	for i, step := range s.Steps {
		at := fmt.Sprintf("steps[%d]", i)
		kinds := step.kinds()
		if len(kinds) != 1 {
			got := "none"
			if len(kinds) > 1 {
				got = strings.Join(kinds, " and ")
			}
			errs = append(errs, FieldError{Field: at, Message: "set exactly one of " + strings.Join(StepKinds, ", ") + " in each step, got " + got})
			continue
		}
		errs = append(errs, step.problems(at+"."+kinds[0])...)
	}
	return errs
}

// problems are the step's own problems; at is the path of its kind ("steps[1].apt").
func (s BuildStep) problems(at string) FieldErrors {
	var errs FieldErrors
	add := func(field, format string, args ...any) {
		errs = append(errs, FieldError{Field: at + field, Message: fmt.Sprintf(format, args...)})
	}
	user := func(field, name string) {
		if name != "" && !userName.MatchString(name) {
			add(field, "%q is not a user name: lower-case letters, digits, '_' or '-', starting with a letter or '_', at most 32", name)
		}
	}
	packages := func(list []string, problem func(string) string) {
		if len(list) == 0 {
			add(".packages", "must list at least one package")
		}
		for j, p := range list {
			if msg := problem(p); msg != "" {
				add(fmt.Sprintf(".packages[%d]", j), "%s", msg)
			}
		}
	}
	switch {
	case s.Run != nil:
		switch {
		case strings.TrimSpace(s.Run.Command) == "":
			add(".command", "must not be empty")
		case strings.ContainsRune(s.Run.Command, 0):
			add(".command", "must not contain a NUL character: %s", nulCommand)
		}
		user(".user", s.Run.User)
	case s.Apt != nil:
		packages(s.Apt.Packages, aptPackageProblem)
	case s.Pip != nil:
		packages(s.Pip.Packages, PackageProblem)
	case s.Npm != nil:
		packages(s.Npm.Packages, npmPackageProblem)
	case s.Env != nil:
		if len(s.Env) == 0 {
			add("", "must set at least one variable")
		}
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			if !envName.MatchString(k) {
				add("", "%q is not an environment variable name: letters, digits and '_', not starting with a digit", k)
			}
			if strings.ContainsRune(s.Env[k], 0) {
				add("", "the value of %s must not contain a NUL character: %s", k, nulEnv)
			}
		}
	case s.Workdir != nil:
		if msg := pathProblem(*s.Workdir); msg != "" {
			add("", "%s", msg)
		}
	case s.User != nil:
		if *s.User == "" {
			add("", "must not be empty")
		}
		user("", *s.User)
	case s.GitClone != nil:
		errs = append(errs, s.GitClone.problems(at)...)
	case s.File != nil:
		errs = append(errs, s.File.problems(at)...)
	}
	return errs
}

func (g GitCloneStep) problems(at string) FieldErrors {
	var errs FieldErrors
	add := func(field, msg string) { errs = append(errs, FieldError{Field: at + field, Message: msg}) }
	if msg := wordProblem(g.URL); msg != "" {
		add(".url", msg)
	}
	if g.Branch != "" {
		if msg := wordProblem(g.Branch); msg != "" {
			add(".branch", msg)
		}
	}
	if g.Depth < 0 {
		add(".depth", fmt.Sprintf("must be at least 1, got %d", g.Depth))
	}
	if g.Path != "" {
		if msg := pathProblem(g.Path); msg != "" {
			add(".path", msg)
		}
	}
	if g.User != "" && !userName.MatchString(g.User) {
		add(".user", fmt.Sprintf("%q is not a user name", g.User))
	}
	return errs
}

func (f FileStep) problems(at string) FieldErrors {
	var errs FieldErrors
	add := func(field, msg string) { errs = append(errs, FieldError{Field: at + field, Message: msg}) }
	switch {
	case f.Source == "" && f.Content == nil:
		add("", "set source (a local file or folder) or content")
	case f.Source != "" && f.Content != nil:
		add(".content", "set source or content, not both")
	case f.Source != "":
		if _, err := os.Lstat(f.Source); err != nil {
			add(".source", fmt.Sprintf("%s: %v", f.Source, unwrapPathError(err)))
		}
	}
	if msg := pathProblem(f.Destination); msg != "" {
		add(".destination", msg)
	} else if f.Content != nil && strings.HasSuffix(f.Destination, "/") {
		add(".destination", fmt.Sprintf("content needs a file name, %q names a folder", f.Destination))
	}
	if f.Mode != "" && !fileMode.MatchString(f.Mode) {
		add(".mode", fmt.Sprintf("%q is not an octal file mode such as \"0644\" or \"755\"", f.Mode))
	}
	if f.Owner != "" {
		owner, group, _ := strings.Cut(f.Owner, ":")
		if !userName.MatchString(owner) || (strings.Contains(f.Owner, ":") && !userName.MatchString(group)) {
			add(".owner", fmt.Sprintf("%q is not \"user\" or \"user:group\"", f.Owner))
		}
	}
	return errs
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// pathProblem: a path in the template, which E2B's server puts between double quotes in its
// scripts, so none of the characters a double-quoted string expands may appear.
func pathProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "must not be empty"
	case strings.ContainsFunc(p, isControlOrSeparator):
		return "must be one line of printable characters"
	case strings.ContainsAny(p, "\"$`\\"):
		return fmt.Sprintf("%q contains one of \" $ ` \\, which E2B's build scripts would expand", p)
	}
	return ""
}

// wordProblem: one shell word that a program must not read as an option.
func wordProblem(w string) string {
	switch {
	case w == "":
		return "must not be empty"
	case strings.HasPrefix(w, "-"):
		return fmt.Sprintf("%q starts with \"-\", which the program would read as an option", w)
	case strings.ContainsFunc(w, func(r rune) bool { return r == ' ' || r == '\t' || isControlOrSeparator(r) }):
		return fmt.Sprintf("%q must be one word, without spaces", w)
	}
	return ""
}

func aptPackageProblem(p string) string {
	if !aptPackage.MatchString(p) {
		return fmt.Sprintf("%q is not a Debian package name (optionally name:arch and =version), e.g. ffmpeg or libgl1=1.7.0-1", p)
	}
	return ""
}

func npmPackageProblem(p string) string { return wordProblem(p) }
