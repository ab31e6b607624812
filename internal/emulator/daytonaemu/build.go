package daytonaemu

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"regexp"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// A snapshot from buildInfo is built by a runner with BuildKit (runner pkg/docker
// image_build.go: the Dockerfile and the context tars, base images pulled with the organization's
// registry credentials). Here the build runs in a sandboxos machine: FROM boots the image model,
// RUN runs through its shell (/bin/sh -c, as BuildKit runs the shell form), ENV, WORKDIR and USER
// set what later steps and the sandboxes see, COPY takes files from the uploaded context (see
// storage.go). The log is BuildKit's plain progress; a failed step's error is the snapshot's
// errorReason.

// runConfig is what a built image gives its containers beyond the filesystem.
type runConfig struct {
	env     map[string]string
	workdir string
	user    string
}

// buildResult is a finished build: the filesystem, its config, the log, and the failure.
type buildResult struct {
	machine *sandboxos.Machine
	config  runConfig
	log     []string
	problem string
}

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct{ keyword, args, text string }

// parseDockerfile splits content into instructions (comments and blank lines dropped).
func parseDockerfile(content string) []instruction {
	var out []instruction
	var pending strings.Builder
	for _, line := range strings.Split(content, "\n") {
		trimmed := strings.TrimSpace(line)
		if pending.Len() == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "#")) {
			continue
		}
		if body, cont := strings.CutSuffix(trimmed, `\`); cont {
			pending.WriteString(body + " ")
			continue
		}
		pending.WriteString(trimmed)
		text := strings.TrimSpace(pending.String())
		pending.Reset()
		keyword, args, _ := strings.Cut(text, " ")
		out = append(out, instruction{keyword: strings.ToUpper(keyword), args: strings.TrimSpace(args), text: text})
	}
	return out
}

var registryHostPrefix = regexp.MustCompile(`(?mi)^\s*FROM\s+(--\S+\s+)*[^\s/]*[.:][^\s/]*/`)

// build runs dockerfile. Callers hold mu.
func (s *Server) build(dockerfile string, contextHashes []string) buildResult {
	steps := parseDockerfile(dockerfile)
	res := buildResult{config: runConfig{env: map[string]string{}}}
	hasRegistry := registryHostPrefix.MatchString(dockerfile)
	for i, ins := range steps {
		n := i + 1
		res.log = append(res.log, fmt.Sprintf("#%d [%d/%d] %s", n, n, len(steps), ins.text))
		var out string
		problem := ""
		switch ins.keyword {
		case "FROM":
			problem = s.buildFrom(&res, ins.args, hasRegistry)
		case "RUN":
			out, problem = runStep(&res, ins.args)
		case "ENV":
			for _, kv := range envPairs(ins.args) {
				res.config.env[kv[0]] = kv[1]
			}
		case "WORKDIR":
			res.config.workdir = resolveDir(res.config.workdir, unquote(ins.args))
			if res.machine != nil {
				_, _ = res.machine.MkdirAll(res.config.workdir, 0o755, "")
			}
		case "USER":
			res.config.user = ins.args
		case "COPY", "ADD":
			problem = s.copyStep(&res, ins.args, contextHashes)
		}
		if res.machine == nil && problem == "" && ins.keyword != "FROM" && ins.keyword != "ARG" {
			problem = "failed to solve: no build stage in current context"
		}
		for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			if line != "" {
				res.log = append(res.log, fmt.Sprintf("#%d %s", n, line))
			}
		}
		if problem != "" {
			res.log = append(res.log, fmt.Sprintf("#%d ERROR: %s", n, problem))
			res.problem = problem
			return res
		}
		res.log = append(res.log, fmt.Sprintf("#%d DONE", n))
	}
	if res.machine == nil {
		res.problem = "failed to solve: the Dockerfile cannot be empty"
	}
	return res
}

// buildFrom pulls the base image with the credentials BuildKit is given.
func (s *Server) buildFrom(res *buildResult, args string, hasRegistry bool) string {
	fields := strings.Fields(args)
	for len(fields) > 0 && strings.HasPrefix(fields[0], "--") {
		fields = fields[1:]
	}
	if len(fields) == 0 {
		return "failed to solve: FROM requires either one or three arguments"
	}
	ref := fields[0]
	img, problem := s.pullImage(ref, s.credentialForBase(ref, hasRegistry))
	if problem != "" {
		return fmt.Sprintf("failed to solve: %s: failed to resolve source metadata for %s: %s", ref, ref, strings.TrimPrefix(problem, "Error response from daemon: "))
	}
	res.machine = sandboxos.Boot(img)
	res.config = runConfig{env: maps.Clone(img.Env), workdir: img.Workdir, user: img.User}
	if res.config.env == nil {
		res.config.env = map[string]string{}
	}
	return ""
}

// runStep runs a RUN instruction: the shell form through /bin/sh -c, the exec form as given.
func runStep(res *buildResult, args string) (string, string) {
	if res.machine == nil {
		return "", ""
	}
	argv := []string{"/bin/sh", "-c", args}
	if strings.HasPrefix(args, "[") {
		var exec []string
		if json.Unmarshal([]byte(args), &exec) == nil && len(exec) > 0 {
			argv = exec
		}
	}
	dir := res.config.workdir
	if dir == "" {
		dir = "/"
	}
	r := res.machine.Exec(context.Background(), argv, sandboxos.Process{User: res.config.user, Dir: dir, Env: res.config.env})
	out := r.Stdout + r.Stderr
	if r.ExitCode != 0 {
		quoted := strings.Join(argv, " ")
		return out, fmt.Sprintf("failed to solve: process %q did not complete successfully: exit code: %d", quoted, r.ExitCode)
	}
	return out, ""
}

// envPairs reads ENV's key=value pairs (values quoted as the SDK's Image.env quotes them,
// shell-quote style) and the legacy "ENV key value" form.
func envPairs(args string) [][2]string {
	words := shellWords(args)
	if len(words) >= 2 && !strings.Contains(words[0], "=") {
		_, rest, _ := strings.Cut(args, " ")
		return [][2]string{{words[0], unquote(strings.TrimSpace(rest))}}
	}
	var out [][2]string
	for _, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// shellWords splits s on blanks, honouring single and double quotes and backslashes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	for i := 0; i < len(s); i++ {
		c := rune(s[i])
		switch {
		case quote == '\'' && c == '\'':
			quote = 0
		case quote == '"' && c == '"':
			quote = 0
		case quote != '\'' && c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case quote != 0:
			cur.WriteRune(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

func unquote(s string) string {
	if w := shellWords(s); len(w) == 1 {
		return w[0]
	}
	return s
}

func resolveDir(current, dir string) string {
	if !strings.HasPrefix(dir, "/") {
		if current == "" {
			current = "/"
		}
		dir = path.Join(current, dir)
	}
	return path.Clean(dir)
}

// entrypointFromDockerfile is snapshot.service.ts getEntrypointFromDockerfile: the last
// ENTRYPOINT, a JSON array or else one string without quotes; ["sleep", "infinity"] when none.
func entrypointFromDockerfile(content string) []string {
	matches := regexp.MustCompile(`ENTRYPOINT\s+(.*)`).FindAllStringSubmatch(content, -1)
	if len(matches) == 0 {
		return []string{"sleep", "infinity"}
	}
	raw := strings.TrimSpace(matches[len(matches)-1][1])
	var parsed []string
	if err := json.Unmarshal([]byte(raw), &parsed); err == nil {
		return parsed
	}
	return []string{strings.NewReplacer(`"`, "", "'", "").Replace(raw)}
}

// prepareBuild decides what the snapshot manager does with a snapshot of buildInfo
// (createFromBuildInfo, handleSnapshotStatePending, the BUILD_SNAPSHOT job's completion in
// services/job-state-handler.service.ts): a build whose snapshotRef a runner already holds (an
// active snapshot of the same Dockerfile and context) makes the snapshot active at once; any
// other goes building, then active, or error with the build's error as errorReason (a failed
// build job sets ERROR, not BUILD_FAILED, which is only for a build the runner refuses to start).
// Callers hold mu.
func (s *Server) prepareBuild(sn *Snapshot, b *buildReq) {
	now := s.now()
	ref := buildSnapshotRef(b.DockerfileContent, b.ContextHashes)
	sn.BuildInfo = &BuildInfo{DockerfileContent: b.DockerfileContent, ContextHashes: b.ContextHashes, SnapshotRef: ref, CreatedAt: now, UpdatedAt: now}
	if sn.BuildInfo.ContextHashes == nil {
		sn.BuildInfo.ContextHashes = []string{}
	}
	sn.Entrypoint = entrypointFromDockerfile(b.DockerfileContent)
	sn.Ref = internalRegistry + "/" + ref
	for _, other := range s.snapshots {
		if !other.Removed && other.Ref == sn.Ref && other.State == StateActive && other.Size != nil {
			sn.Size, sn.machine, sn.config, sn.log = other.Size, other.machine, other.config, other.log
			sn.State, sn.LastUsedAt = StateActive, &now
			return
		}
	}
	res := s.build(b.DockerfileContent, b.ContextHashes)
	sn.log = res.log
	if res.problem != "" {
		sn.next = []step{{state: StateBuilding}, {StateError, res.problem}}
		return
	}
	size := 0.5
	sn.Size, sn.machine, sn.config = &size, res.machine, res.config
	sn.next = []step{{state: StateBuilding}, {state: StateActive}}
}
