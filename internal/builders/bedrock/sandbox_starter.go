package bedrock

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// A Bedrock template is a code interpreter, so a check's sandbox is a session of it
// (StartCodeInterpreterSession), its commands run with the executeCommand tool
// (InvokeCodeInterpreter, whose answer is an event stream) and it ends with
// StopCodeInterpreterSession, or at its sessionTimeoutSeconds when nobody stops it.
//
// executeCommand takes a command and nothing else. Workdir and Env reach it as a shell prefix
// (cd '<dir>' && export K='v' && <command>), as AWS's own AgentCore sandbox for Strands applies
// them; a code interpreter has no user to choose nor a start command, so a request with User or
// Entrypoint is refused rather than run as someone else.

var _ builders.SandboxStarter = (*Builder)(nil)

// maxSessionLifetime is the longest sessionTimeoutSeconds AgentCore takes (8 hours); a longer
// Lifetime is cut to it.
const maxSessionLifetime = 28800 * time.Second

// maxSessionName is the longest session name AgentCore takes.
const maxSessionName = 100

// envName is a variable name a shell export takes.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// StartSandbox starts a session of the code interpreter req.Build. Its name is req.Labels, as
// key=value pairs in key order, so a session left behind can be told apart in
// ListCodeInterpreterSessions; it ends at req.Lifetime when nobody stops it.
func (b *Builder) StartSandbox(ctx context.Context, req builders.SandboxRequest) (builders.Sandbox, error) {
	prefix, err := commandPrefix(req)
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	name, err := sessionName(req.Labels)
	if err != nil {
		return nil, builders.AtStage(builders.StageValidation, err)
	}
	if err := b.checkCredentials(ctx); err != nil {
		return nil, err
	}
	out, err := b.data.StartCodeInterpreterSession(ctx, &bedrockagentcore.StartCodeInterpreterSessionInput{
		CodeInterpreterIdentifier: aws.String(req.Build),
		Name:                      name,
		SessionTimeoutSeconds:     sessionTimeout(req.Lifetime),
	})
	if err != nil {
		return nil, b.interpreterError("StartCodeInterpreterSession of", req.Build, err)
	}
	return &session{builder: b, interpreter: req.Build, id: aws.ToString(out.SessionId), prefix: prefix}, nil
}

// commandPrefix is what puts a command in req's workdir with its environment, or why req cannot
// be honoured.
func commandPrefix(req builders.SandboxRequest) (string, error) {
	switch {
	case req.User != "":
		return "", fmt.Errorf("bedrock: code interpreter sessions run commands as the code interpreter's own user; there is no user %q to run them as", req.User)
	case len(req.Entrypoint) > 0:
		return "", errors.New("bedrock: code interpreter sessions have no start command to run")
	}
	var prefix strings.Builder
	if req.Workdir != "" {
		prefix.WriteString("cd " + builders.ShellQuote(req.Workdir) + " && ")
	}
	if len(req.Env) > 0 {
		names := slices.Sorted(maps.Keys(req.Env))
		assignments := make([]string, 0, len(names))
		for _, name := range names {
			if !envName.MatchString(name) {
				return "", fmt.Errorf("bedrock: %q is not a variable name a shell can export", name)
			}
			assignments = append(assignments, name+"="+builders.ShellQuote(req.Env[name]))
		}
		prefix.WriteString("export " + strings.Join(assignments, " ") + " && ")
	}
	return prefix.String(), nil
}

// sessionName is labels as key=value pairs in key order, nil when there are none.
func sessionName(labels map[string]string) (*string, error) {
	if len(labels) == 0 {
		return nil, nil
	}
	pairs := make([]string, 0, len(labels))
	for _, key := range slices.Sorted(maps.Keys(labels)) {
		pairs = append(pairs, key+"="+labels[key])
	}
	name := strings.Join(pairs, ",")
	if len(name) > maxSessionName {
		return nil, fmt.Errorf("bedrock: the session's labels (%s) are longer than the %d characters a code interpreter session's name holds", name, maxSessionName)
	}
	return &name, nil
}

// sessionTimeout is lifetime in whole seconds, rounded up, at most AgentCore's maximum; nil (the
// service's default, 15 minutes) for none.
func sessionTimeout(lifetime time.Duration) *int32 {
	if lifetime <= 0 {
		return nil
	}
	return aws.Int32(int32(math.Ceil(min(lifetime, maxSessionLifetime).Seconds())))
}

// session is a started code interpreter session.
type session struct {
	builder     *Builder
	interpreter string
	id          string
	prefix      string
}

func (s *session) ID() string { return s.id }

// Run runs command with executeCommand and reads the result events of its stream: their
// structuredContent's stdout and stderr (or, without it, their text content) and exit code.
func (s *session) Run(ctx context.Context, command string) (builders.CommandOutcome, error) {
	out, err := s.builder.data.InvokeCodeInterpreter(ctx, &bedrockagentcore.InvokeCodeInterpreterInput{
		CodeInterpreterIdentifier: aws.String(s.interpreter),
		SessionId:                 aws.String(s.id),
		Name:                      types.ToolNameExecuteCommand,
		Arguments:                 &types.ToolArguments{Command: aws.String(s.prefix + command)},
	})
	if err != nil {
		return builders.CommandOutcome{}, s.builder.apiError("InvokeCodeInterpreter in session "+s.id+" of", s.interpreter, err)
	}
	stream := out.GetStream()
	defer func() { _ = stream.Close() }()
	output := builders.TailBuffer{Max: builders.MaxCheckOutputBytes}
	exitCode, results := 0, 0
	for event := range stream.Events() {
		if result, ok := event.(*types.CodeInterpreterStreamOutputMemberResult); ok {
			results++
			exitCode = readResult(&output, result.Value)
		}
	}
	if err := stream.Err(); err != nil {
		return builders.CommandOutcome{}, s.builder.apiError("the result stream of InvokeCodeInterpreter in session "+s.id+" of", s.interpreter, err)
	}
	if err := ctx.Err(); err != nil {
		return builders.CommandOutcome{}, fmt.Errorf("bedrock: session %s: %w", s.id, err)
	}
	if results == 0 {
		return builders.CommandOutcome{}, fmt.Errorf("bedrock: session %s of code interpreter %q: InvokeCodeInterpreter's result stream ended without a result", s.id, s.interpreter)
	}
	return builders.CommandOutcome{ExitCode: exitCode, Output: slices.Clone(output.Bytes())}, nil
}

// readResult writes a result event's output to output and returns its exit code: the
// structuredContent's, else 1 for an error result and 0 for another.
func readResult(output *builders.TailBuffer, result types.CodeInterpreterResult) int {
	exitCode := 0
	if aws.ToBool(result.IsError) {
		exitCode = 1
	}
	structured := result.StructuredContent
	if structured == nil {
		for _, block := range result.Content {
			if block.Type == types.ContentBlockTypeText {
				_, _ = output.Write([]byte(aws.ToString(block.Text)))
			}
		}
		return exitCode
	}
	_, _ = output.Write([]byte(aws.ToString(structured.Stdout)))
	_, _ = output.Write([]byte(aws.ToString(structured.Stderr)))
	if structured.ExitCode != nil {
		exitCode = int(*structured.ExitCode)
	}
	return exitCode
}

// Close stops the session. One already gone (stopped, or past its lifetime) is not found, which
// is what Close is for.
func (s *session) Close(ctx context.Context) error {
	_, err := s.builder.data.StopCodeInterpreterSession(ctx, &bedrockagentcore.StopCodeInterpreterSessionInput{
		CodeInterpreterIdentifier: aws.String(s.interpreter),
		SessionId:                 aws.String(s.id),
	})
	var gone *types.ResourceNotFoundException
	if err == nil || errors.As(err, &gone) {
		return nil
	}
	return s.builder.apiError("StopCodeInterpreterSession of session "+s.id+" of", s.interpreter, err)
}
