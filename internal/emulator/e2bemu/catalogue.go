package e2bemu

import (
	"path"
	"slices"
	"strings"
)

// contents is what a build's root filesystem holds that a command can depend on. known is false
// for an image the catalogue does not list: its commands are then assumed present, but files that
// only E2B's own images carry (such as the code-interpreter start script) are not.
type contents struct {
	known    bool
	commands []string // on PATH
	files    []string // absolute paths of scripts outside the system's bin folders
}

// base template metadata inherited by fromTemplate (finalize/builder.go: start metadata is copied
// from the template a build starts from unless the build sets a start or ready command).
type baseTemplate struct {
	contents
	startCmd, readyCmd string
	buildID            string // the build it starts from, a key of the base layer ("" for E2B's own)
}

// provisioned is what E2B's base phase installs into every image
// (packages/orchestrator/pkg/template/build/phases/base/distro/distro.go, Profiles[].Packages),
// plus the shell and core utilities every supported distribution has.
var provisioned = []string{
	"sudo", "curl", "git", "jq", "socat", "less", "ping", "ip", "ss", "systemctl", "ssh", // distro.go
	"bash", "sh", "cat", "echo", "printf", "ls", "mkdir", "cp", "mv", "rm", "ln", "chmod", "chown", "touch",
	"sleep", "test", "true", "false", "env", "tee", "grep", "sed", "awk", "find", "head", "tail", "wc",
	"sort", "xargs", "tar", "gzip", "id", "whoami", "uname", "mktemp", "apt-get", "dpkg",
}

var pythonTools = []string{"python", "python3", "pip", "pip3"}

// codeInterpreterFiles: e2b-dev/code-interpreter template/start-up.sh, installed by its Docker
// Hub image (template/build_docker.py). No other image has it (e2b-dev/E2B#827).
var codeInterpreterFiles = []string{"/root/.jupyter/start-up.sh"}

// images lists what known images add to the provisioned set, by repository (registry, "library/"
// and tag stripped); a trailing "*" matches any repository with that prefix.
var images = map[string]contents{
	"e2bdev/code-interpreter*": {known: true, commands: append([]string{"jupyter", "node", "npm"}, pythonTools...), files: codeInterpreterFiles},
	"python":                   {known: true, commands: pythonTools},
	"node":                     {known: true, commands: []string{"node", "npm", "npx"}},
	"ubuntu":                   {known: true},
	"debian":                   {known: true},
	"alpine":                   {known: true},
}

// builtinTemplates are E2B's public templates a build may start from (fromTemplate).
var builtinTemplates = map[string]baseTemplate{
	// e2b-dev/code-interpreter template/template.py and build_prod.py: Jupyter under systemd.
	"code-interpreter-v1": {contents: contents{known: true, commands: append([]string{"jupyter", "node", "npm"}, pythonTools...)},
		startCmd: "sudo systemctl start jupyter", readyCmd: "curl -s -o /dev/null -w '%{http_code}' http://localhost:49999/health | grep -q 200"},
	"base": {contents: contents{known: true, commands: append([]string{"node", "npm"}, pythonTools...)}},
}

// imageContents looks an image reference up in the catalogue.
func imageContents(ref string) contents {
	repo := repository(ref)
	for pattern, c := range images {
		if prefix, wildcard := strings.CutSuffix(pattern, "*"); (wildcard && strings.HasPrefix(repo, prefix)) || repo == pattern {
			return c
		}
	}
	return contents{}
}

// repository strips a reference's registry, "library/", tag and digest: "docker.io/library/python:3.12" is "python".
func repository(ref string) string {
	ref, _, _ = strings.Cut(ref, "@")
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	if first, rest, ok := strings.Cut(ref, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		ref = rest
	}
	return strings.TrimPrefix(ref, "library/")
}

// systemBins are the folders whose executables the provisioned set and image commands describe.
var systemBins = []string{"/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"}

// shellBuiltins run whatever the image holds.
var shellBuiltins = []string{"cd", "export", "source", ".", "exit", "set", "unset", "[", "if", "for", "while"}

// missing returns the executable a shell command line cannot find in c, or "".
func (c contents) missing(cmdline string) string {
	exe := executable(cmdline)
	if exe == "" || slices.Contains(shellBuiltins, exe) {
		return ""
	}
	if strings.HasPrefix(exe, "/") {
		if slices.Contains(c.files, exe) {
			return ""
		}
		if !slices.Contains(systemBins, path.Dir(exe)) {
			return exe // a script outside the bin folders: only images that list it have it
		}
		exe = path.Base(exe)
	}
	if !c.known || slices.Contains(provisioned, exe) || slices.Contains(c.commands, exe) {
		return ""
	}
	return exe
}

// executable is the program a command line runs first, past sudo and its options and past
// leading VAR=value assignments.
func executable(cmdline string) string {
	fields := strings.Fields(cmdline)
	for len(fields) > 0 {
		switch f := fields[0]; {
		case strings.Contains(f, "=") && !strings.HasPrefix(f, "-") && !strings.HasPrefix(f, "/"):
			fields = fields[1:]
		case f == "sudo":
			fields = fields[1:]
			for len(fields) > 0 && strings.HasPrefix(fields[0], "-") {
				opt := fields[0]
				fields = fields[1:]
				if (opt == "-u" || opt == "-g") && len(fields) > 0 {
					fields = fields[1:]
				}
			}
		default:
			return strings.Trim(strings.TrimRight(f, ";&|"), `'"`) // the shell drops the quotes
		}
	}
	return ""
}
