package e2b

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// dockerfileBuild is a Dockerfile translated into a build from image, as the SDKs'
// Template.fromDockerfile does it client side (js-sdk template/dockerfileParser.ts): the v2 build
// API has no Dockerfile field, and the legacy endpoint that took one needs an access token, not
// an API key.
type dockerfileBuild struct {
	image    string
	steps    []templateStep
	startCmd string
	readyCmd string
	notes    []string // instructions that were skipped
}

// parseDockerfile supports one FROM and RUN, ENV, ARG, WORKDIR, USER, CMD and ENTRYPOINT.
// COPY and ADD need build files uploaded from a local context, which a Terraform spec does not
// have: they are an error. Like the SDKs, the steps run as root in / and end as E2B's user in
// /home/user unless the Dockerfile sets its own.
func parseDockerfile(content string) (dockerfileBuild, error) {
	var d dockerfileBuild
	d.steps = []templateStep{{Type: stepUser, Args: []string{"root"}}, {Type: stepWorkdir, Args: []string{"/"}}}
	userSet, workdirSet := false, false
	for _, line := range dockerfileLines(content) {
		keyword, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch keyword = strings.ToUpper(keyword); keyword {
		case "FROM":
			if d.image != "" {
				return d, errors.New("dockerfile: multi-stage Dockerfiles are not supported")
			}
			d.image = fromImage(rest)
		case "RUN":
			d.steps = append(d.steps, runStep(execForm(rest)))
		case "ENV", "ARG":
			if args := envArgs(keyword, rest); len(args) > 0 {
				d.steps = append(d.steps, templateStep{Type: stepEnv, Args: args})
			}
		case "WORKDIR":
			d.steps, workdirSet = append(d.steps, templateStep{Type: stepWorkdir, Args: []string{rest}}), true
		case "USER":
			d.steps, userSet = append(d.steps, templateStep{Type: stepUser, Args: []string{rest}}), true
		case "CMD", "ENTRYPOINT":
			d.startCmd, d.readyCmd = execForm(rest), dockerfileReadyCmd
		case "COPY", "ADD":
			return d, fmt.Errorf("dockerfile: %s needs files from a build context, which E2B builds from a spec cannot upload: bake them into an image and build from image", keyword)
		default:
			d.notes = append(d.notes, "dockerfile: "+keyword+" is not supported by E2B builds and was skipped")
		}
	}
	if d.image == "" {
		return d, errors.New("dockerfile: a FROM instruction is required")
	}
	if !userSet {
		d.steps = append(d.steps, templateStep{Type: stepUser, Args: []string{"user"}})
	}
	if !workdirSet {
		d.steps = append(d.steps, templateStep{Type: stepWorkdir, Args: []string{"/home/user"}})
	}
	return d, nil
}

// dockerfileLines joins continuation lines and drops comments and blank lines.
func dockerfileLines(content string) []string {
	var lines []string
	var current strings.Builder
	for _, raw := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(raw)
		if current.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			current.WriteString(strings.TrimSpace(cont) + " ")
			continue
		}
		current.WriteString(line)
		lines = append(lines, strings.TrimSpace(current.String()))
		current.Reset()
	}
	if current.Len() > 0 {
		lines = append(lines, strings.TrimSpace(current.String()))
	}
	return lines
}

// fromImage takes the image of "FROM [--platform=...] image [AS name]".
func fromImage(args string) string {
	for _, field := range strings.Fields(args) {
		if !strings.HasPrefix(field, "--") {
			return field
		}
	}
	return ""
}

// execForm turns the JSON (exec) form ["a", "b"] into a shell command that runs exactly those
// words: each is single-quoted, so RUN ["echo", "a; touch x"] echoes "a; touch x" as Docker
// would, instead of running touch. The shell form is kept as written.
func execForm(args string) string {
	var parts []string
	if strings.HasPrefix(args, "[") && json.Unmarshal([]byte(args), &parts) == nil {
		quoted := make([]string, len(parts))
		for i, p := range parts {
			quoted[i] = builders.ShellQuote(p)
		}
		return strings.Join(quoted, " ")
	}
	return args
}

// envArgs reads "ENV k=v k2=v2", "ENV k v" and "ARG k[=default]" into the ENV step's
// [key, value, ...] args.
func envArgs(keyword, rest string) []string {
	fields := splitQuoted(rest)
	if len(fields) == 0 {
		return nil
	}
	if keyword == "ENV" && !strings.Contains(fields[0], "=") {
		return []string{fields[0], strings.TrimSpace(strings.TrimPrefix(rest, fields[0]))}
	}
	var args []string
	for _, f := range fields {
		key, value, _ := strings.Cut(f, "=")
		if key != "" {
			args = append(args, key, value)
		}
	}
	return args
}

// splitQuoted splits on spaces outside double or single quotes, dropping the quotes.
func splitQuoted(s string) []string {
	var fields []string
	var current strings.Builder
	var quote rune
	inField := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote, inField = r, true
		case quote == 0 && (r == ' ' || r == '\t'):
			if inField {
				fields, inField = append(fields, current.String()), false
				current.Reset()
			}
		default:
			current.WriteRune(r)
			inField = true
		}
	}
	if inField {
		fields = append(fields, current.String())
	}
	return fields
}

// ValidateDockerfile checks, before any request, that E2B can build content (see parseDockerfile):
// the plan-time check of the deprecated dockerfile attribute.
func ValidateDockerfile(content string) error {
	_, err := parseDockerfile(content)
	return err
}
