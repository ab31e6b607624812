package opensandboxemu

import (
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Sandbox is the emulator's record of one sandbox, including what the client sent.
type Sandbox struct {
	ID             string
	Image          string
	Auth           *ImageAuth // the exact credentials the sandbox was created with
	SnapshotID     string
	Entrypoint     []string
	ResourceLimits map[string]string
	Env            map[string]string
	Metadata       map[string]string
	Timeout        *int
	ExpiresAt      time.Time // zero: no timeout, so no expiry (manual cleanup)
	State          string
	Reason         string
	Message        string
	CreatedAt      time.Time
	Deleted        bool
	Commands       []Command   // execd commands run in it, in order
	Calls          []ExecdCall // every execd command, folder made and file uploaded, in order

	polls       int
	accessToken string
	runsImage   string // the image the container runs: its own, or its snapshot's
	exit        *pendingExit
	machine     *sandboxos.Machine       // its root filesystem (sandbox_fs.go): the image's, or its snapshot's
	statuses    map[string]commandStatus // execd's record of each command, by id (background.go)
}

// pendingExit is an entrypoint's end that requests have not seen yet (Options.EntrypointExitsAfter).
type pendingExit struct {
	code       int
	seenBefore int // requests that still see the sandbox Running
}

// Command is one execd command as received.
type Command struct {
	Command string
	Cwd     string
	UID     *uint32
	GID     *uint32
	Envs    map[string]string
	Timeout *int64
	// Background: sent detached (execd's background); it runs as an entrypoint does, so a program
	// that serves keeps running.
	Background bool
}

// ExecdCall is one execd request that changes the sandbox, as received: exactly one field is set.
type ExecdCall struct {
	Command *Command
	MakeDir *FileWrite // POST /directories, one folder
	Upload  *FileWrite // POST /files/upload, one file
}

// FileWrite is a folder or file execd was asked to make, with its permission as sent (Mode in
// octal digits: 755 is 0755).
type FileWrite struct {
	Path    string
	Owner   string
	Group   string
	Mode    int
	Content []byte // an upload's bytes, its first MaxKeptContent only
	Size    int64  // an upload's size and SHA-256 (hex), of all its bytes
	SHA256  string
}

// Snapshot is the emulator's record of one snapshot.
type Snapshot struct {
	ID        string
	SandboxID string
	Name      string
	Image     string // what a restore runs: the source sandbox's image (snapshot_restore.py)
	State     string
	Reason    string
	Message   string
	CreatedAt time.Time
	Deleted   bool
	// Commands are the commands that had run in the source sandbox when it was captured.
	Commands []Command

	polls   int
	machine *sandboxos.Machine // the source sandbox's root filesystem, for restores
}

// Sandbox and snapshot states (spec SandboxState / SnapshotState).
const (
	StatePending    = "Pending"
	StateRunning    = "Running"
	StatePaused     = "Paused"
	StateFailed     = "Failed"
	StateTerminated = "Terminated"

	SnapshotCreating = "Creating"
	SnapshotReady    = "Ready"
	SnapshotFailed   = "Failed"
	SnapshotDeleting = "Deleting"
)

func (s *Sandbox) clone() Sandbox {
	c := *s
	c.Commands = append([]Command(nil), s.Commands...)
	c.Calls = append([]ExecdCall(nil), s.Calls...)
	return c
}

func (s *Snapshot) clone() Snapshot {
	c := *s
	c.Commands = append([]Command(nil), s.Commands...)
	return c
}
