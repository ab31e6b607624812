package opensandboxemu

import (
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Options configure a Server. The zero value is a permissive server that accepts any API key and
// behaves like a current server on the Docker runtime.
type Options struct {
	// APIKey, when set, is the only OPEN-SANDBOX-API-KEY accepted (401 otherwise).
	APIKey string

	// PendingPolls is for wait tests only. Zero, the default, answers POST /sandboxes with a
	// Running sandbox, as real runtimes do (docker_service.py create_sandbox answers
	// CONTAINER_RUNNING; kubernetes_service.py waits for Running before answering). A positive
	// value answers Pending and keeps the sandbox Pending for that many GETs; negative keeps it
	// Pending forever (cancellation tests).
	PendingPolls int
	// EntrypointExitsAfter models the race real servers have: the Docker runtime answers Running
	// once the container started, before an entrypoint that fails at once has ended it. That many
	// requests about such a sandbox (GETs, execd calls, snapshot creates) still see it Running;
	// zero ends it before any.
	EntrypointExitsAfter int
	// CreatingPolls is how many GETs of a new snapshot answer Creating before it settles.
	// Zero means 1; negative keeps snapshots Creating forever.
	CreatingPolls int

	// MaxPageSize caps the pageSize of list calls (the real server caps snapshots at 200).
	// Zero means 200.
	MaxPageSize int

	// MaxSandboxTimeoutSeconds is the server's server.max_sandbox_timeout_seconds: a create whose
	// timeout is above it is a 400 (validators.py ensure_timeout_within_limit). Zero means no cap,
	// the server's default (config.py).
	MaxSandboxTimeoutSeconds int
	// IgnoreSnapshotNameFilter makes GET /snapshots ignore ?name=, as servers before OpenSandbox
	// PR #1301 (2026-07) do.
	IgnoreSnapshotNameFilter bool

	// Images declares what images hold (sandboxos.Declaration), by reference (a reference without
	// a tag declares every tag): what the emulator cannot know, such as a private registry's image,
	// which it otherwise assumes to be Debian with Python (sandboxos.Catalogue).
	Images map[string]sandboxos.Declaration

	// PrivateImages maps an image URI to the only credentials that can pull it. A sandbox
	// created from it with other (or no) credentials fails to pull.
	PrivateImages map[string]ImageAuth
	// UnpullableImages never pull. A pull failure answers the create with 500
	// DOCKER::SANDBOX_IMAGE_PULL_FAILED, as the Docker runtime pulls before it answers
	// (docker/container_ops.py); with PendingPolls set, the sandbox goes Failed with an
	// ErrImagePull reason instead, as a Kubernetes pod does.
	UnpullableImages []string

	// FailSnapshots makes every snapshot end Failed instead of Ready.
	FailSnapshots bool

	// Programs, when set, decides the outcome of a program an execd command runs (its arguments
	// joined by spaces) before the emulator's model of the program does; ok false leaves it to the
	// model. Tests use it for what the model does not know, such as a package no index has.
	Programs func(program string) (result CommandResult, ok bool)

	// OnRequest, when set, sees every request before it is handled (tests use it to cancel a
	// context at a precise point).
	OnRequest func(r *http.Request)
}

// ImageAuth is the registry credential of an image, as sent in CreateSandboxRequest.image.auth.
type ImageAuth struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// CommandResult is what an emulated execd command prints and how it exits.
type CommandResult struct {
	ExitCode int      `json:"exitCode"`
	Stdout   []string `json:"stdout"`
	Stderr   []string `json:"stderr"`
	Serving  bool     `json:"-"` // a detached command that keeps running
}

func (o Options) creatingPolls() int { return defaultIfZero(o.CreatingPolls, 1) }
func (o Options) maxPageSize() int   { return defaultIfZero(o.MaxPageSize, 200) }

func defaultIfZero(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
