package opensandboxemu

import "net/http"

// Options configure a Server. The zero value is a permissive server that accepts any API key.
type Options struct {
	// APIKey, when set, is the only OPEN-SANDBOX-API-KEY accepted (401 otherwise).
	APIKey string

	// PendingPolls is how many GETs of a new sandbox answer Pending before it turns Running.
	// Zero means 1; negative keeps sandboxes Pending forever (for cancellation tests).
	PendingPolls int
	// CreatingPolls is how many GETs of a new snapshot answer Creating before it settles.
	// Zero means 1; negative keeps snapshots Creating forever.
	CreatingPolls int

	// MaxPageSize caps the pageSize of list calls (the real server caps snapshots at 200).
	// Zero means 200.
	MaxPageSize int

	// PrivateImages maps an image URI to the only credentials that can pull it. A sandbox
	// created from it with other (or no) credentials fails with an image pull reason.
	PrivateImages map[string]ImageAuth
	// UnpullableImages never pull: the sandbox goes Failed with an image pull reason.
	UnpullableImages []string
	// PullFailsOnCreate reports pull failures the way the Docker runtime does, synchronously as
	// 500 DOCKER::SANDBOX_IMAGE_PULL_FAILED from POST /sandboxes, instead of a Failed sandbox.
	PullFailsOnCreate bool

	// FailSnapshots makes every snapshot end Failed instead of Ready.
	FailSnapshots bool

	// CommandResult decides the outcome of an execd command. Nil means exit 0, no output.
	CommandResult func(command string) CommandResult

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
	ExitCode int
	Stdout   []string
	Stderr   []string
}

func (o Options) pendingPolls() int  { return defaultIfZero(o.PendingPolls, 1) }
func (o Options) creatingPolls() int { return defaultIfZero(o.CreatingPolls, 1) }
func (o Options) maxPageSize() int   { return defaultIfZero(o.MaxPageSize, 200) }

func defaultIfZero(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
