package opensandbox

import (
	"encoding/json"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// Wire types of the lifecycle spec (components.schemas), only the fields this package uses.

type createSandboxRequest struct {
	Image          imageSpec         `json:"image"`
	Entrypoint     []string          `json:"entrypoint"`
	ResourceLimits map[string]string `json:"resourceLimits"`
	Metadata       map[string]string `json:"metadata,omitempty"`
	Timeout        int               `json:"timeout"`
}

type imageSpec struct {
	URI  string     `json:"uri"`
	Auth *imageAuth `json:"auth,omitempty"`
}

// imageAuth keeps the password a Secret up to the moment the request body is encoded.
type imageAuth struct {
	Username string
	Password builders.Secret
}

func (a imageAuth) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Username string `json:"username"`
		Password string `json:"password"`
	}{a.Username, a.Password.Reveal()})
}

type status struct {
	State   string `json:"state"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type sandbox struct {
	ID         string            `json:"id"`
	SnapshotID string            `json:"snapshotId"` // the snapshot it was restored from
	Status     status            `json:"status"`
	Metadata   map[string]string `json:"metadata"`
}

type sandboxList struct {
	Items      []sandbox `json:"items"`
	Pagination struct {
		HasNextPage bool `json:"hasNextPage"`
	} `json:"pagination"`
}

type snapshot struct {
	ID        string    `json:"id"`
	SandboxID string    `json:"sandboxId"`
	Name      string    `json:"name"`
	Status    status    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
}

type snapshotList struct {
	Items      []snapshot `json:"items"`
	Pagination struct {
		HasNextPage bool `json:"hasNextPage"`
	} `json:"pagination"`
}

type endpoint struct {
	Endpoint string            `json:"endpoint"`
	Headers  map[string]string `json:"headers"`
}

// States the builder acts on (spec SandboxState / SnapshotState; others are waited out).
const (
	stateRunning    = "Running"
	stateFailed     = "Failed"
	stateStopping   = "Stopping"
	stateTerminated = "Terminated"

	snapshotReady    = "Ready"
	snapshotFailed   = "Failed"
	snapshotDeleting = "Deleting"
)
