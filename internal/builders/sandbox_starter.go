package builders

import (
	"context"
	"time"
)

// SandboxStarter is a Builder that can start a sandbox from one exact build, as the template's
// consumers would, so a check (sandbox_template_check) proves a build works before a tag moves to
// it. A backend whose builder is one says so in its descriptor (Backend.Checks).
type SandboxStarter interface {
	StartSandbox(ctx context.Context, req SandboxRequest) (Sandbox, error)
}

// SandboxRequest is what a consumer passes when it starts a sandbox from a template.
type SandboxRequest struct {
	TemplateID string
	// Build is the exact build to start: an E2B build id, an OpenSandbox snapshot id (what the
	// template_ref value resolves to: ResolveCheckBuild), a Bedrock code interpreter id.
	Build string
	// Env, Workdir, User and Entrypoint are the template's sandbox_env, sandbox_workdir,
	// sandbox_user and sandbox_entrypoint: empty where the template keeps its own.
	Env        map[string]string
	Workdir    string
	User       string
	Entrypoint []string
	// Lifetime is how long the backend keeps the sandbox when nobody ends it (the CLI was
	// killed): the backend's own sandbox timeout.
	Lifetime time.Duration
	// Labels mark the sandbox as a check's (backend metadata), so a later run can find one left
	// behind.
	Labels map[string]string
}

// Sandbox is a started sandbox.
type Sandbox interface {
	// ID is the backend's id of the sandbox.
	ID() string
	// Run runs command through a shell in the sandbox, as the consumer's user, in its workdir,
	// with its environment, and returns its exit code and the tail of its output. A command that
	// ran and failed is an outcome, not an error; an error means the sandbox could not run it.
	Run(ctx context.Context, command string) (CommandOutcome, error)
	// Close ends the sandbox. Ending a sandbox that is already gone is not an error.
	Close(ctx context.Context) error
}

// CommandOutcome is what a command run in a sandbox came to.
type CommandOutcome struct {
	ExitCode int
	// Output is the last MaxCheckOutputBytes of stdout and stderr, in the order they came (a
	// backend that streams them apart interleaves them as they arrive).
	Output []byte
}

// MaxCheckOutputBytes is how much of a command's output a check keeps: enough for a traceback,
// bounded whatever the command prints.
const MaxCheckOutputBytes = 64 << 10
